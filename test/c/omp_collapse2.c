// collapse(2) on a perfectly nested i/j loop over a float ** matrix and over
// a local fixed 2-D array, and collapse(2) together with a reduction.
#include <stdio.h>
#include <stdlib.h>

#define R 37
#define C 53

int main(void) {
  int fails = 0;
  float **a = (float **)malloc(R * sizeof(float *));
  for (int i = 0; i < R; i++)
    a[i] = (float *)malloc(C * sizeof(float));
  int local[R][C];
#pragma omp parallel for collapse(2)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      a[i][j] = (float)(i * C + j);
      local[i][j] = i - j;
    }
  long sum = 0;
#pragma omp parallel for collapse(2) reduction(+ : sum) schedule(static)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      sum += (long)a[i][j] + local[i][j];
  /* sum of 0..R*C-1 plus sum of (i - j) */
  long n = (long)R * C;
  long expected = n * (n - 1) / 2 + (long)C * R * (R - 1) / 2 - (long)R * C * (C - 1) / 2;
  if (sum != expected) fails++;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      if (a[i][j] != (float)(i * C + j) || local[i][j] != i - j)
        fails++;
  for (int i = 0; i < R; i++)
    free(a[i]);
  free(a);
  if (fails) {
    printf("FAIL omp_collapse2 %d\n", fails);
    return 1;
  }
  printf("ok omp_collapse2 %ld\n", sum);
  return 0;
}
