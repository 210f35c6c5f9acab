// #pragma omp single inside a parallel region: the block runs on exactly one
// thread, and the implicit barrier after it publishes its result to the
// following #pragma omp for.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 5000;
  int fails = 0;
  int single_runs = 0;
  double pivot = 0.0;
  double *out = (double *)malloc(n * sizeof(double));
#pragma omp parallel
  {
#pragma omp single
    {
      single_runs++;
      double p = 0.0;
      for (int k = 1; k <= 10; k++)
        p += k;
      pivot = p; /* 55 */
    }
#pragma omp for
    for (int i = 0; i < n; i++)
      out[i] = pivot + (double)i;
#pragma omp single
    single_runs++;
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += out[i];
  if (single_runs != 2 || pivot != 55.0) fails++;
  if (s != 55.0 * n + (double)n * (n - 1) / 2.0) fails++;
  free(out);
  if (fails) {
    printf("FAIL omp_single %d %d\n", fails, single_runs);
    return 1;
  }
  printf("ok omp_single %d %.1f\n", single_runs, s);
  return 0;
}
