// A parallel for whose body calls user functions (a dot product and a
// helper returning a value), and a function containing its own parallel for
// called repeatedly from a sequential loop.
#include <stdio.h>
#include <stdlib.h>

static double dot(double *a, double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

static void axpy(int n, double alpha, double *x, double *y) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] += alpha * x[i];
}

int main(void) {
  int n = 256;
  int fails = 0;
  double **m = (double **)malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    m[i] = (double *)malloc(n * sizeof(double));
    for (int j = 0; j < n; j++)
      m[i][j] = (double)((i + j) % 4);
  }
  double *ones = (double *)malloc(n * sizeof(double));
  double *y = (double *)malloc(n * sizeof(double));
  for (int j = 0; j < n; j++)
    ones[j] = 1.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = dot(m[i], ones, n);
  /* every row holds each of 0,1,2,3 n/4 times: row sum 6 n / 4 */
  for (int i = 0; i < n; i++)
    if (y[i] != 6.0 * n / 4.0)
      fails++;
  for (int rep = 0; rep < 10; rep++)
    axpy(n, 0.5, ones, y);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += y[i];
  if (s != (6.0 * n / 4.0 + 5.0) * n) fails++;
  for (int i = 0; i < n; i++)
    free(m[i]);
  free(m);
  free(ones);
  free(y);
  if (fails) {
    printf("FAIL omp_nested_call %d\n", fails);
    return 1;
  }
  printf("ok omp_nested_call %.1f\n", s);
  return 0;
}
