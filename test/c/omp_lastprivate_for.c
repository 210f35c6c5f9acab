// lastprivate(k, v) on an #pragma omp for inside a #pragma omp parallel
// region, with an int k and a double v; the loop index is declared outside
// the loop too (it is private).  After the region k and v must be the
// values of the last iteration (i = n - 1); i is not checked.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 9000;
  int fails = 0;
  double *a = (double *)malloc(n * sizeof(double));
  int k = 0;
  double v = 0.0;
  int i;
#pragma omp parallel
  {
#pragma omp for lastprivate(k, v)
    for (i = 0; i < n; i++) {
      k = i * i % 1000;
      v = (double)(n - i) * 0.25;
      a[i] = v;
    }
  }
  int kexp = (n - 1) * (n - 1) % 1000;
  if (k != kexp) fails++;
  if (v != 0.25) fails++;
  for (int j = 0; j < n; j++)
    if (a[j] != (double)(n - j) * 0.25) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_lastprivate_for %d %d %d %f\n", fails, k, kexp, v);
    return 1;
  }
  printf("ok omp_lastprivate_for %d %.2f\n", k, v);
  return 0;
}
