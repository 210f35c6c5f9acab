// Benchmark idiom: the rows of a double ** table are malloc'd in a loop,
// each followed by `if (!A[i]) { fprintf(stderr, ...); exit(1); }`, (and
// the same check for the row-pointer array itself), then a parallel for
// fills and scales the rows.  Values are small integers times 0.5 (exact);
// compared with the closed form of each element and of the total.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 300;
  int m = 200;
  int fails = 0;
  double **A = (double **)malloc(n * sizeof(double *));
  if (!A) {
    fprintf(stderr, "idiom_null_check_rows: out of memory\n");
    exit(1);
  }
  for (int i = 0; i < n; i++) {
    A[i] = (double *)malloc(m * sizeof(double));
    if (!A[i]) {
      fprintf(stderr, "idiom_null_check_rows: row %d: out of memory\n", i);
      exit(1);
    }
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      A[i][j] = (double)(i + j);
    for (int j = 0; j < m; j++)
      A[i][j] = A[i][j] * 0.5;
  }
  double total = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      if (A[i][j] != 0.5 * (i + j)) fails++;
      total += A[i][j];
    }
  /* 0.5 * (m * n (n - 1) / 2 + n * m (m - 1) / 2) */
  double expect = 0.5 * ((double)m * n * (n - 1) / 2.0 + (double)n * m * (m - 1) / 2.0);
  if (total != expect) fails++;
  for (int i = 0; i < n; i++)
    free(A[i]);
  free(A);
  if (fails) {
    printf("FAIL idiom_null_check_rows %d %f %f\n", fails, total, expect);
    return 1;
  }
  printf("ok idiom_null_check_rows %.1f\n", total);
  return 0;
}
