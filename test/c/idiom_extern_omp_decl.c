// Benchmark idiom: the program declares the OpenMP routines it uses itself,
// `extern int omp_get_num_threads(void); extern double omp_get_wtime(void);`
// (no omp.h), inside the usual guard, with a sequential fallback.  In a
// parallel region the team size must be >= 1 and the clock must not run
// backwards; neither is printed.  The loop result is a closed form.
#include <stdio.h>

#if defined(_OPENMP) || defined(__CARTS__)
extern int omp_get_num_threads(void);
extern double omp_get_wtime(void);
#else
static int omp_get_num_threads(void) { return 1; }
static double omp_get_wtime(void) { return 0.0; }
#endif

int main(void) {
  int n = 30000;
  int fails = 0;
  long s = 0;
  int team = 0;
  double t0 = omp_get_wtime();
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++)
      s += i % 11;
  }
  double t1 = omp_get_wtime();
  if (team < 1) fails++;
  if (t1 < t0) fails++;
  long e = 0;
  for (int i = 0; i < n; i++)
    e += i % 11;
  if (s != e) fails++;
  if (fails) {
    printf("FAIL idiom_extern_omp_decl %d %ld %ld\n", fails, s, e);
    return 1;
  }
  printf("ok idiom_extern_omp_decl %ld\n", s);
  return 0;
}
