// float *** from an alloc_3d helper (malloc loops, pointer-of-pointer), a
// 3-D 7-point-style smoothing into a second array, reductions over slices.
#include <stdio.h>
#include <stdlib.h>

static float ***alloc_3d(int d0, int d1, int d2) {
  float ***a = (float ***)malloc(d0 * sizeof(float **));
  for (int i = 0; i < d0; i++) {
    a[i] = (float **)malloc(d1 * sizeof(float *));
    for (int j = 0; j < d1; j++)
      a[i][j] = (float *)malloc(d2 * sizeof(float));
  }
  return a;
}

static void free_3d(float ***a, int d0, int d1) {
  for (int i = 0; i < d0; i++) {
    for (int j = 0; j < d1; j++)
      free(a[i][j]);
    free(a[i]);
  }
  free(a);
}

int main(void) {
  int fails = 0;
  int d0 = 6, d1 = 7, d2 = 8;
  float ***a = alloc_3d(d0, d1, d2);
  float ***b = alloc_3d(d0, d1, d2);
  for (int i = 0; i < d0; i++)
    for (int j = 0; j < d1; j++)
      for (int k = 0; k < d2; k++) {
        a[i][j][k] = (float)(i + 2 * j + 3 * k); /* linear field */
        b[i][j][k] = 0.0f;
      }
  /* averaging a linear field over symmetric neighbours leaves it unchanged */
  for (int i = 1; i < d0 - 1; i++)
    for (int j = 1; j < d1 - 1; j++)
      for (int k = 1; k < d2 - 1; k++)
        b[i][j][k] = (a[i - 1][j][k] + a[i + 1][j][k] + a[i][j - 1][k] +
                      a[i][j + 1][k] + a[i][j][k - 1] + a[i][j][k + 1]) / 6.0f;
  for (int i = 1; i < d0 - 1; i++)
    for (int j = 1; j < d1 - 1; j++)
      for (int k = 1; k < d2 - 1; k++)
        if (b[i][j][k] != a[i][j][k])
          fails++;
  double slice = 0.0;
  for (int j = 0; j < d1; j++)
    for (int k = 0; k < d2; k++)
      slice += a[2][j][k];
  /* 56 * 2 + 2 * 8 * 21 + 3 * 7 * 28 */
  if (slice != 112.0 + 336.0 + 588.0) fails++;
  free_3d(a, d0, d1);
  free_3d(b, d0, d1);
  if (fails) {
    printf("FAIL float_3d_malloc %d\n", fails);
    return 1;
  }
  printf("ok float_3d_malloc %.1f\n", slice);
  return 0;
}
