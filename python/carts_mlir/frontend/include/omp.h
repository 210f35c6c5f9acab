/*
 * omp.h as the carts front end sees it.
 *
 * The front end parses C with libclang, which cannot digest gcc's omp.h (it uses
 * gcc-only attribute syntax).  This header declares the OpenMP runtime routines of
 * the supported subset; the front end turns calls to them into `func.call`s, the
 * sequential JIT path defines them (one thread), and the ARTS pipeline rewrites
 * them into runtime queries.
 */
#ifndef CARTS_FRONTEND_OMP_H
#define CARTS_FRONTEND_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_num_threads(int num_threads);
double omp_get_wtime(void);
double omp_get_wtick(void);

#ifdef __cplusplus
}
#endif

#endif /* CARTS_FRONTEND_OMP_H */
