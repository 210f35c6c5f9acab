// 2-D blocked wavefront on a double ** grid (one malloc per row), ordered
// through a separate flat array of block tokens: the task for block (bi, bj)
// has depend(in:) on the tokens of the blocks above and to the left and
// depend(out:) on its own.  Tasks are created along anti-diagonals.  Values
// stay small integers (kept below 1009 with fmod), so the doubles are exact;
// the result is compared with a plain sequential sweep.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int B = 12;
  int nb = 7;
  int n = B * nb;
  int fails = 0;
  double **g = (double **)malloc(n * sizeof(double *));
  double **ref = (double **)malloc(n * sizeof(double *));
  int *tok = (int *)malloc(nb * nb * sizeof(int));
  for (int i = 0; i < n; i++) {
    g[i] = (double *)malloc(n * sizeof(double));
    ref[i] = (double *)malloc(n * sizeof(double));
    for (int j = 0; j < n; j++) {
      g[i][j] = 0.0;
      ref[i][j] = 0.0;
    }
  }
  for (int t = 0; t < nb * nb; t++)
    tok[t] = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      double up = (i > 0) ? ref[i - 1][j] : 2.0;
      double left = (j > 0) ? ref[i][j - 1] : 3.0;
      ref[i][j] = fmod(up * 3.0 + left + (double)(i + j), 1009.0);
    }
  }
#pragma omp parallel
  {
#pragma omp single
    {
      for (int d = 0; d < 2 * nb - 1; d++) {
        for (int bi = 0; bi < nb; bi++) {
          int bj = d - bi;
          if (bj < 0 || bj >= nb)
            continue;
          int ut = (bi > 0) ? (bi - 1) * nb + bj : bi * nb + bj;
          int lt = (bj > 0) ? bi * nb + bj - 1 : bi * nb + bj;
#pragma omp task depend(in: tok[ut], tok[lt]) depend(out: tok[bi * nb + bj])
          {
            for (int i = bi * B; i < bi * B + B; i++) {
              for (int j = bj * B; j < bj * B + B; j++) {
                double up = (i > 0) ? g[i - 1][j] : 2.0;
                double left = (j > 0) ? g[i][j - 1] : 3.0;
                g[i][j] = fmod(up * 3.0 + left + (double)(i + j), 1009.0);
              }
            }
            tok[bi * nb + bj] = d + 1;
          }
        }
      }
#pragma omp taskwait
    }
  }
  double sum = 0.0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (g[i][j] != ref[i][j]) fails++;
      sum += g[i][j];
    }
  }
  for (int bi = 0; bi < nb; bi++)
    for (int bj = 0; bj < nb; bj++)
      if (tok[bi * nb + bj] != bi + bj + 1) fails++;
  double corner = g[n - 1][n - 1];
  for (int i = 0; i < n; i++) {
    free(g[i]);
    free(ref[i]);
  }
  free(g);
  free(ref);
  free(tok);
  if (fails) {
    printf("FAIL omp_task_wavefront_rows %d\n", fails);
    return 1;
  }
  printf("ok omp_task_wavefront_rows %.1f %.1f\n", sum, corner);
  return 0;
}
