/* Variable-length arrays: locals whose extents are computed at run time (1-D and 2-D, one
   extent fixed), parameters declared with the extents they are given (`double a[n][m]`),
   a fixed array passed to such a parameter, sizeof of a variable-length array, and one
   declared in a parallel region (a copy per thread). */
#include <stdio.h>

static void scale(int n, int m, double a[n][m], double by) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      a[i][j] *= by;
}

static double total(int n, int m, const double a[n][m]) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += a[i][j];
  return s;
}

int main(int argc, char **argv) {
  int n = 6 + argc, m = 5; /* 7 x 5 when run without arguments */
  double v[n];
  double g[n][m];
  int h[n][3];
  for (int i = 0; i < n; i++) {
    v[i] = i;
    for (int j = 0; j < m; j++)
      g[i][j] = i + j;
    for (int j = 0; j < 3; j++)
      h[i][j] = i * j;
  }
  double s = 0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++)
    s += v[i] * 2 + h[i][2];
  scale(n, m, g, 2.0);
  double fixed[4][5];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      fixed[i][j] = 1.0;
  double f = total(4, 5, fixed);
  long rows = 0;
#pragma omp parallel reduction(+: rows)
  {
    int mine[m];
    for (int j = 0; j < m; j++)
      mine[j] = j;
    rows += mine[m - 1] == m - 1;
  }
  /* closed forms: sum 2i + 2i over i < n; 2 * sum (i + j) */
  double expect_s = 4.0 * n * (n - 1) / 2;
  double expect_g = 2.0 * (m * n * (n - 1) / 2 + n * m * (m - 1) / 2);
  int ok = s == expect_s && total(n, m, g) == expect_g && f == 20.0 && rows >= 1 &&
           sizeof(v) == n * sizeof(double) && sizeof(g) == (size_t)n * m * sizeof(double) &&
           sizeof(g[0]) == m * sizeof(double) && sizeof(h) == (size_t)n * 3 * sizeof(int);
  if (!ok) {
    printf("FAIL omp_vla_arrays %.1f %.1f %.1f %ld\n", s, total(n, m, g), f, rows);
    return 1;
  }
  printf("ok omp_vla_arrays %.1f %.1f %.1f\n", s, expect_g, f);
  return 0;
}
