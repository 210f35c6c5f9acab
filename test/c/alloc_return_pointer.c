// Functions that return pointers: 1-D float / int / double buffers, a float **
// built by calling the 1-D helper, a helper returning one of its arguments,
// and a function filling and returning a fresh buffer (the alloc_3d style
// the examples use).
#include <stdio.h>
#include <stdlib.h>

static float *alloc_f(int n) { return (float *)malloc(n * sizeof(float)); }

static int *iota(int n, int start) {
  int *a = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    a[i] = start + i;
  return a;
}

static float **alloc_f2(int rows, int cols) {
  float **a = (float **)malloc(rows * sizeof(float *));
  for (int i = 0; i < rows; i++)
    a[i] = alloc_f(cols);
  return a;
}

static double *pick(double *a, double *b, int first) { return first ? a : b; }

static void free_f2(float **a, int rows) {
  for (int i = 0; i < rows; i++)
    free(a[i]);
  free(a);
}

int main(void) {
  int fails = 0;
  int *v = iota(10, 5);
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += v[i];
  if (s != 95) fails++;
  float **m = alloc_f2(3, 4);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      m[i][j] = (float)(i * j);
  float ms = 0.0f;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      ms += m[i][j];
  if (ms != 18.0f) fails++;
  double *a = (double *)malloc(2 * sizeof(double));
  double *b = (double *)malloc(2 * sizeof(double));
  a[0] = 1.0;
  b[0] = 2.0;
  double *p = pick(a, b, 0);
  p[1] = 7.0; /* writes into b */
  if (p[0] != 2.0 || b[1] != 7.0) fails++;
  double got = pick(a, b, 1)[0];
  if (got != 1.0) fails++;
  free(a);
  free(b);
  free(v);
  free_f2(m, 3);
  if (fails) {
    printf("FAIL alloc_return_pointer %d\n", fails);
    return 1;
  }
  printf("ok alloc_return_pointer %d %.1f\n", s, ms);
  return 0;
}
