// #pragma omp parallel for on simple loops: element-wise writes to malloc'd
// int / double arrays, a loop with a non-zero lower bound and an expression
// upper bound, and a loop reading one array and writing another.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 10000;
  int fails = 0;
  long *sq = (long *)malloc(n * sizeof(long));
  double *half = (double *)malloc(n * sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    sq[i] = (long)i * i;
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
    half[i] = 0.5 * (double)sq[i];
  half[0] = 0.0;
  half[n - 1] = 0.0;
  long s = 0;
  double h = 0.0;
  for (int i = 0; i < n; i++) {
    s += sq[i];
    h += half[i];
  }
  long expected = (long)(n - 1) * n * (2L * n - 1) / 6;
  if (s != expected) fails++;
  if (h != 0.5 * (double)(expected - (long)(n - 1) * (n - 1))) fails++;
  free(sq);
  free(half);
  if (fails) {
    printf("FAIL omp_parallel_for %d\n", fails);
    return 1;
  }
  printf("ok omp_parallel_for %ld %.1f\n", s, h);
  return 0;
}
