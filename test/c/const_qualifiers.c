// const locals, const globals, const scalar parameters, pointer-to-const
// parameters (read-only arrays), const array parameters (`const double a[]`, given a
// local array or a pointer) and const in a 2-D (pointer-of-pointer) param.
#include <stdio.h>
#include <stdlib.h>

const double k_pi_approx = 3.0;
static const int k_len = 6;

static double dot(const double *a, const double *b, const int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

static double total(const double a[], const int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

static int trace(int *const *m, int n) {
  int t = 0;
  for (int i = 0; i < n; i++)
    t += m[i][i];
  return t;
}

int main(void) {
  const int n = k_len;
  double a[6];
  double b[6];
  for (int i = 0; i < n; i++) {
    a[i] = i + 1;
    b[i] = 2.0;
  }
  const double d = dot(a, b, n);
  const double *pb = b;
  const double sum = total(a, n) + total(pb, n);
  int **m = (int **)malloc(3 * sizeof(int *));
  for (int i = 0; i < 3; i++) {
    m[i] = (int *)malloc(3 * sizeof(int));
    for (int j = 0; j < 3; j++)
      m[i][j] = 10 * i + j;
  }
  int t = trace(m, 3);
  for (int i = 0; i < 3; i++)
    free(m[i]);
  free(m);
  double area = k_pi_approx * 2.0 * 2.0;
  if (d != 42.0 || t != 33 || area != 12.0 || sum != 33.0) {
    printf("FAIL const_qualifiers %f %d %f %f\n", d, t, area, sum);
    return 1;
  }
  printf("ok const_qualifiers %.1f %d %.1f %.1f\n", d, t, area, sum);
  return 0;
}
