// Polybench idiom: init_array(n, &alpha, &beta, A) writes two scalars
// through pointers and fills a table; main then runs a parallel for using
// alpha and beta (B[i][j] = alpha * A[i][j] + beta).  A second helper
// returns a count through an int *.  Compared with closed forms.
#include <stdio.h>
#include <stdlib.h>

static void init_array(int n, double *alpha, double *beta, double **A) {
  *alpha = 1.5;
  *beta = 0.25;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      A[i][j] = (double)((i * j) % 8);
}

static void count_big(int n, double **B, double lim, int *cnt) {
  int c = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (B[i][j] > lim) c++;
  *cnt = c;
}

int main(void) {
  int n = 200;
  int fails = 0;
  double alpha = 0.0, beta = 0.0;
  double **A = (double **)malloc(n * sizeof(double *));
  double **B = (double **)malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++) {
    A[i] = (double *)malloc(n * sizeof(double));
    B[i] = (double *)malloc(n * sizeof(double));
  }
  init_array(n, &alpha, &beta, A);
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[i][j] = alpha * A[i][j] + beta;
  int big = -1;
  count_big(n, B, 6.0, &big);
  int ebig = 0;
  double total = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int v = (i * j) % 8;
      if (B[i][j] != 1.5 * v + 0.25) fails++;
      if (v >= 4) ebig++; /* 1.5 v + 0.25 > 6 iff v >= 4 */
      total += B[i][j];
    }
  if (alpha != 1.5 || beta != 0.25 || big != ebig) fails++;
  for (int i = 0; i < n; i++) {
    free(A[i]);
    free(B[i]);
  }
  free(A);
  free(B);
  if (fails) {
    printf("FAIL idiom_addr_of_scalar %d %d %d\n", fails, big, ebig);
    return 1;
  }
  printf("ok idiom_addr_of_scalar %d %.2f\n", big, total);
  return 0;
}
