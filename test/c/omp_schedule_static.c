// schedule(static) and schedule(static, chunk): every iteration runs exactly
// once (per-index visit counters, each written by one thread only) and
// computes the same values as a sequential loop.
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 10007
#endif

int main(void) {
  int fails = 0;
  int *visits = (int *)calloc(N, sizeof(int));
  double *out = (double *)malloc(N * sizeof(double));
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i++) {
    visits[i]++;
    out[i] = (double)i * 0.5;
  }
#pragma omp parallel for schedule(static, 7)
  for (int i = 0; i < N; i++) {
    visits[i]++;
    out[i] += 1.0;
  }
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < N; i += 2)
    visits[i]++;
  double s = 0.0;
  for (int i = 0; i < N; i++) {
    if (visits[i] != (i % 2 == 0 ? 3 : 2))
      fails++;
    if (out[i] != (double)i * 0.5 + 1.0)
      fails++;
    s += out[i];
  }
  free(visits);
  free(out);
  if (fails) {
    printf("FAIL omp_schedule_static %d\n", fails);
    return 1;
  }
  printf("ok omp_schedule_static %.1f\n", s);
  return 0;
}
