// float ** from a malloc loop: row-major fill, matrix-vector product,
// transpose into a second float **, swapping two row pointers, freeing.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int fails = 0;
  int n = 16;
  int m = 24;
  float **a = (float **)malloc(n * sizeof(float *));
  for (int i = 0; i < n; i++)
    a[i] = (float *)malloc(m * sizeof(float));
  float **t = (float **)malloc(m * sizeof(float *));
  for (int j = 0; j < m; j++)
    t[j] = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = (float)(i - j);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      t[j][i] = a[i][j];
  float *x = (float *)malloc(m * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  for (int j = 0; j < m; j++)
    x[j] = 1.0f;
  for (int i = 0; i < n; i++) {
    y[i] = 0.0f;
    for (int j = 0; j < m; j++)
      y[i] += a[i][j] * x[j];
  }
  /* row i: sum_j (i - j) = 24 i - 276 */
  for (int i = 0; i < n; i++)
    if (y[i] != (float)(24 * i - 276))
      fails++;
  if (t[5][3] != -2.0f || t[0][15] != 15.0f) fails++;
  float *tmp = a[0]; /* swap rows by pointer */
  a[0] = a[n - 1];
  a[n - 1] = tmp;
  if (a[0][0] != 15.0f || a[n - 1][0] != 0.0f) fails++;
  for (int i = 0; i < n; i++)
    free(a[i]);
  free(a);
  for (int j = 0; j < m; j++)
    free(t[j]);
  free(t);
  float y3 = y[3];
  free(x);
  free(y);
  if (fails) {
    printf("FAIL float_2d_malloc %d\n", fails);
    return 1;
  }
  printf("ok float_2d_malloc %.1f\n", y3);
  return 0;
}
