// private(...) on parallel for: per-iteration temporaries declared outside
// the loop (scalar int and double) and the inner loop index of a loop nest
// declared outside (the classic case that races without private).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 200;
  int m = 150;
  int fails = 0;
  double **a = (double **)malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++)
    a[i] = (double *)malloc(m * sizeof(double));
  double *rowsum = (double *)malloc(n * sizeof(double));
  int j;
  int t;
  double acc;
#pragma omp parallel for private(j, t, acc)
  for (int i = 0; i < n; i++) {
    acc = 0.0;
    for (j = 0; j < m; j++) {
      t = i + j;
      a[i][j] = (double)t;
      acc += (double)t;
    }
    rowsum[i] = acc;
  }
  double total = 0.0;
  for (int i = 0; i < n; i++) {
    /* row i: m i + m (m - 1) / 2 */
    if (rowsum[i] != (double)m * i + (double)m * (m - 1) / 2.0)
      fails++;
    total += rowsum[i];
  }
  for (int i = 0; i < n; i++)
    if (a[i][m - 1] != (double)(i + m - 1))
      fails++;
  for (int i = 0; i < n; i++)
    free(a[i]);
  free(a);
  free(rowsum);
  if (fails) {
    printf("FAIL omp_private %d\n", fails);
    return 1;
  }
  printf("ok omp_private %.1f\n", total);
  return 0;
}
