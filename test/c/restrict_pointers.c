// restrict-qualified pointer parameters (saxpy, copy, scale) on malloc'd and
// local arrays.
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *restrict x, float *restrict y) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static void copy(int n, double *restrict dst, const double *restrict src) {
  for (int i = 0; i < n; i++)
    dst[i] = src[i];
}

static void scale2d(int n, int m, float **restrict a, float s) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] *= s;
}

int main(void) {
  int n = 100;
  float *x = (float *)malloc(n * sizeof(float));
  float *y = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  saxpy(n, 2.0f, x, y);
  float sy = 0.0f;
  for (int i = 0; i < n; i++)
    sy += y[i];
  /* 2 * 4950 + 100 */
  double src[5] = {1.0, 2.0, 3.0, 4.0, 5.0};
  double dst[5];
  copy(5, dst, src);
  double sd = 0.0;
  for (int i = 0; i < 5; i++)
    sd += dst[i];
  float **a = (float **)malloc(2 * sizeof(float *));
  for (int i = 0; i < 2; i++) {
    a[i] = (float *)malloc(3 * sizeof(float));
    for (int j = 0; j < 3; j++)
      a[i][j] = 1.0f;
  }
  scale2d(2, 3, a, 1.5f);
  float sa = 0.0f;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      sa += a[i][j];
  for (int i = 0; i < 2; i++)
    free(a[i]);
  free(a);
  free(x);
  free(y);
  if (sy != 10000.0f || sd != 15.0 || sa != 9.0f) {
    printf("FAIL restrict_pointers %f %f %f\n", sy, sd, sa);
    return 1;
  }
  printf("ok restrict_pointers %.1f %.1f %.1f\n", sy, sd, sa);
  return 0;
}
