// calloc: zero-filled int, float and double buffers and calloc'd rows of a
// pointer-of-pointer matrix; a histogram accumulated into calloc'd counts.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int fails = 0;
  int n = 1000;
  int *counts = (int *)calloc(10, sizeof(int));
  double *d = (double *)calloc(n, sizeof(double));
  float **m = (float **)calloc(4, sizeof(float *));
  for (int i = 0; i < 4; i++)
    m[i] = (float *)calloc(8, sizeof(float));
  for (int i = 0; i < n; i++)
    if (d[i] != 0.0)
      fails++;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      if (m[i][j] != 0.0f)
        fails++;
  for (int i = 0; i < n; i++)
    counts[(i * 7) % 10]++;
  for (int k = 0; k < 10; k++)
    if (counts[k] != 100)
      fails++;
  for (int i = 0; i < 4; i++)
    m[i][i] += 1.0f;
  float tr = 0.0f;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      tr += m[i][j];
  if (tr != 4.0f) fails++;
  free(counts);
  free(d);
  for (int i = 0; i < 4; i++)
    free(m[i]);
  free(m);
  if (fails) {
    printf("FAIL calloc_zero %d\n", fails);
    return 1;
  }
  printf("ok calloc_zero %.1f\n", tr);
  return 0;
}
