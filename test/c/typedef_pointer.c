// typedefs of pointer types (vector, matrix, cube) used for malloc'd
// pointer-of-pointer arrays, parameters and return values.
#include <stdio.h>
#include <stdlib.h>

typedef float *vec_t;
typedef float **mat_t;
typedef double ***cube_t;

static vec_t new_vec(int n) { return (vec_t)malloc(n * sizeof(float)); }

static mat_t new_mat(int n, int m) {
  mat_t a = (mat_t)malloc(n * sizeof(vec_t));
  for (int i = 0; i < n; i++)
    a[i] = new_vec(m);
  return a;
}

static cube_t new_cube(int n, int m, int k) {
  cube_t c = (cube_t)malloc(n * sizeof(double **));
  for (int i = 0; i < n; i++) {
    c[i] = (double **)malloc(m * sizeof(double *));
    for (int j = 0; j < m; j++)
      c[i][j] = (double *)malloc(k * sizeof(double));
  }
  return c;
}

static void matvec(mat_t a, vec_t x, vec_t y, int n, int m) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += a[i][j] * x[j];
    y[i] = s;
  }
}

int main(void) {
  int n = 4;
  int m = 5;
  mat_t a = new_mat(n, m);
  vec_t x = new_vec(m);
  vec_t y = new_vec(n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] = (float)(i + j);
  for (int j = 0; j < m; j++)
    x[j] = 1.0f;
  matvec(a, x, y, n, m);
  float sy = 0.0f;
  for (int i = 0; i < n; i++)
    sy += y[i];
  /* sum over i<4, j<5 of i + j = 5*6 + 4*10 = 70 */
  cube_t c = new_cube(2, 3, 4);
  double sc = 0.0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++) {
        c[i][j][k] = i * 100 + j * 10 + k;
        sc += c[i][j][k];
      }
  /* 12*100 + 2*4*(0+10+20) + 6*(0+1+2+3) = 1200 + 240 + 36 */
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 3; j++)
      free(c[i][j]);
    free(c[i]);
  }
  free(c);
  for (int i = 0; i < n; i++)
    free(a[i]);
  free(a);
  free(x);
  free(y);
  if (sy != 70.0f || sc != 1476.0) {
    printf("FAIL typedef_pointer %f %f\n", sy, sc);
    return 1;
  }
  printf("ok typedef_pointer %.1f %.1f\n", sy, sc);
  return 0;
}
