// #pragma omp atomic on a double accumulator: sum += a[i] in a parallel
// for, with a[i] a small multiple of 0.5 so every partial sum is exact and
// the result does not depend on the order of the updates.  Expected value
// from the closed form of the sum.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 40000;
  int fails = 0;
  double *a = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)(i % 64) * 0.5;
  double sum = 0.0;
  double neg = 100.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    sum += a[i];
#pragma omp atomic
    neg -= 0.25;
  }
  /* n / 64 full periods, each sum 0.5 * (63 * 64 / 2) */
  double expect = (double)(n / 64) * 0.5 * (63.0 * 64.0 / 2.0);
  double nexp = 100.0 - 0.25 * n;
  if (sum != expect) fails++;
  if (neg != nexp) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_atomic_update_double %f %f %f %f\n", sum, expect, neg, nexp);
    return 1;
  }
  printf("ok omp_atomic_update_double %.1f %.1f\n", sum, neg);
  return 0;
}
