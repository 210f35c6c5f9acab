// #pragma omp critical around sum += a[i] (and a long counter) in a
// parallel for.  The summed values are small multiples of 0.25, so the
// result is exact whatever order the threads enter the critical section;
// it is compared with a sequential sum.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 20000;
  int fails = 0;
  double *a = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)((i * 7) % 101) * 0.25;
  double sum = 0.0;
  long cnt = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v = a[i] * 2.0;
#pragma omp critical
    sum += v;
#pragma omp critical
    {
      cnt += i % 3;
    }
  }
  double sexp = 0.0;
  long cexp = 0;
  for (int i = 0; i < n; i++) {
    sexp += a[i] * 2.0;
    cexp += i % 3;
  }
  if (sum != sexp) fails++;
  if (cnt != cexp) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_critical_sum %f %f %ld %ld\n", sum, sexp, cnt, cexp);
    return 1;
  }
  printf("ok omp_critical_sum %.2f %ld\n", sum, cnt);
  return 0;
}
