// 2-D blocked wavefront on a double ** grid (one malloc per row): the task
// for block (bi, bj) names its block by the first element, g[bi * B][bj * B],
// and depends on the blocks above and to the left the same way.  Tasks are
// created along anti-diagonals.  Values stay small integers (kept below
// 1009 with fmod), so the doubles are exact; the result is compared with a
// plain sequential sweep.
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
  for (int i = 0; i < n; i++) {
    g[i] = (double *)malloc(n * sizeof(double));
    ref[i] = (double *)malloc(n * sizeof(double));
    for (int j = 0; j < n; j++) {
      g[i][j] = 0.0;
      ref[i][j] = 0.0;
    }
  }
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
          int ui = (bi > 0) ? (bi - 1) * B : bi * B;
          int lj = (bj > 0) ? (bj - 1) * B : bj * B;
#pragma omp task depend(in: g[ui][bj * B], g[bi * B][lj]) depend(out: g[bi * B][bj * B])
          {
            for (int i = bi * B; i < bi * B + B; i++) {
              for (int j = bj * B; j < bj * B + B; j++) {
                double up = (i > 0) ? g[i - 1][j] : 2.0;
                double left = (j > 0) ? g[i][j - 1] : 3.0;
                g[i][j] = fmod(up * 3.0 + left + (double)(i + j), 1009.0);
              }
            }
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
  double corner = g[n - 1][n - 1];
  for (int i = 0; i < n; i++) {
    free(g[i]);
    free(ref[i]);
  }
  free(g);
  free(ref);
  if (fails) {
    printf("FAIL omp_task_wavefront_2d %d\n", fails);
    return 1;
  }
  printf("ok omp_task_wavefront_2d %.1f %.1f\n", sum, corner);
  return 0;
}
