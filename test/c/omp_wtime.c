// omp_get_wtime: wall-clock seconds that never go backwards; the elapsed time
// of a small kernel is non-negative and small.  Sequential fallback returns a
// constant.  The printed line contains no timing.
#include <stdio.h>

#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static double omp_get_wtime(void) { return 0.0; }
#endif

int main(void) {
  int fails = 0;
  double t0 = omp_get_wtime();
  double acc = 0.0;
#pragma omp parallel for reduction(+ : acc)
  for (int i = 0; i < 200000; i++)
    acc += (double)(i % 10);
  double t1 = omp_get_wtime();
  double t2 = omp_get_wtime();
  double elapsed = t1 - t0;
  if (elapsed < 0.0 || elapsed > 60.0 || t2 < t1) fails++;
  if (acc != 900000.0) fails++;
  if (fails) {
    printf("FAIL omp_wtime %d\n", fails);
    return 1;
  }
  printf("ok omp_wtime %.1f\n", acc);
  return 0;
}
