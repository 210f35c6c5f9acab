// Benchmark idiom: a flat n x m array used through row pointers
// `double *row = p + i * m` and reads/writes `*(row + k)` / `*(p + idx)`
// inside a parallel for (each iteration owns row i).  Row sums of a
// second pass are compared with closed forms computed through subscripts.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 250;
  int m = 160;
  int fails = 0;
  double *p = (double *)malloc(n * m * sizeof(double));
  double *rs = (double *)malloc(n * sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double *row = p + i * m;
    for (int k = 0; k < m; k++)
      *(row + k) = (double)(i * 2 + k);
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    const double *q = p + (long)i * m;
    double s = 0.0;
    for (int k = 0; k < m; k++)
      s += *(q + k) + *(p + i * m + (m - 1 - k));
    *(rs + i) = s;
  }
  double total = 0.0;
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < m; k++)
      if (p[i * m + k] != (double)(i * 2 + k)) fails++;
    /* 2 * (2 i m + m (m - 1) / 2) */
    if (rs[i] != 2.0 * (2.0 * i * m + (double)m * (m - 1) / 2.0)) fails++;
    total += rs[i];
  }
  free(p);
  free(rs);
  if (fails) {
    printf("FAIL idiom_pointer_arith %d\n", fails);
    return 1;
  }
  printf("ok idiom_pointer_arith %.1f\n", total);
  return 0;
}
