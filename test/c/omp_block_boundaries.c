// Parallel loops over 1-D arrays whose chunks do not line up with the blocks
// the arrays are split into: a loop over the interior (1 .. n-2), a loop with
// step 3, an odd length, and a read under a conditional. Each result is
// checked against a second, sequential computation of the same values.
#include <stdio.h>
#include <stdlib.h>

#define N 1001

int main(void) {
  int fails = 0;
  float *x = (float *)malloc(N * sizeof(float));
  float *y = (float *)malloc(N * sizeof(float));
  int *z = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) {
    x[i] = (float)((i * 37) % 101) - 50.0f;
    y[i] = -1.0f;
    z[i] = -1;
  }

  /* the interior only: chunks of ceil((n - 2) / workers) rows */
#pragma omp parallel for schedule(static)
  for (int i = 1; i < N - 1; i++)
    y[i] = x[i] > 0.0f ? x[i] : 0.0f;

  /* every third element */
#pragma omp parallel for schedule(static)
  for (int i = 0; i < N; i += 3)
    z[i] = i;

  for (int i = 0; i < N; i++) {
    float want = (i == 0 || i == N - 1) ? -1.0f : (x[i] > 0.0f ? x[i] : 0.0f);
    if (y[i] != want)
      fails++;
    if (z[i] != (i % 3 == 0 ? i : -1))
      fails++;
  }
  double s = 0.0;
  long t = 0;
  for (int i = 0; i < N; i++) {
    s += y[i];
    t += z[i];
  }
  free(x);
  free(y);
  free(z);
  if (fails) {
    printf("FAIL omp_block_boundaries %d\n", fails);
    return 1;
  }
  printf("ok omp_block_boundaries %.1f %ld\n", s, t);
  return 0;
}
