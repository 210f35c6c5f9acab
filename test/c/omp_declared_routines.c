// The OpenMP routines declared by the program itself instead of through <omp.h>, as some
// real programs do: the calls resolve as with the header. Sequential fallback without
// OpenMP. Thread counts and times are checked, never printed.
#include <stdio.h>

#if defined(_OPENMP) || defined(__CARTS__)
extern int omp_get_thread_num(void);
extern int omp_get_num_threads(void);
extern int omp_get_max_threads(void);
extern double omp_get_wtime(void);
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
static int omp_get_max_threads(void) { return 1; }
static double omp_get_wtime(void) { return 0.0; }
#endif

int main(void) {
  int a[256];
  int fails = 0;
  double t0 = omp_get_wtime();
  int max_threads = omp_get_max_threads();
  if (max_threads < 1)
    fails++;
  if (omp_get_thread_num() != 0 || omp_get_num_threads() != 1) /* outside any region */
    fails++;
#pragma omp parallel for
  for (int i = 0; i < 256; i++)
    a[i] = 3 * i + (omp_get_thread_num() >= 0 ? 1 : 0);
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  if (team < 1 || team > max_threads)
    fails++;
  long sum = 0;
  for (int i = 0; i < 256; i++)
    sum += a[i];
  if (sum != 3L * 255 * 256 / 2 + 256)
    fails++;
  if (omp_get_wtime() < t0)
    fails++;
  if (fails) {
    printf("FAIL omp_declared_routines %d\n", fails);
    return 1;
  }
  printf("ok omp_declared_routines %ld\n", sum);
  return 0;
}
