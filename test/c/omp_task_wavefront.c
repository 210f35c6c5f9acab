// 2-D blocked wavefront on a flat n x n array: the task for block (bi, bj)
// needs the blocks above and to the left, and names every block by its
// first element (depend(in: g[(bi - 1) * B * n + bj * B], ...),
// depend(inout: g[bi * B * n + bj * B])).  Tasks are created row by row;
// the result is compared with a plain sequential sweep.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int B = 16;
  int nb = 6;
  int n = B * nb;
  int fails = 0;
  long *g = (long *)malloc(n * n * sizeof(long));
  long *ref = (long *)malloc(n * n * sizeof(long));
  for (int i = 0; i < n * n; i++) {
    g[i] = 0;
    ref[i] = 0;
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      long up = (i > 0) ? ref[(i - 1) * n + j] : 1;
      long left = (j > 0) ? ref[i * n + j - 1] : 1;
      ref[i * n + j] = (up + 2 * left + i * j) % 1009;
    }
  }
#pragma omp parallel
  {
#pragma omp single
    {
      for (int bi = 0; bi < nb; bi++) {
        for (int bj = 0; bj < nb; bj++) {
          int up = (bi > 0) ? bi - 1 : bi;
          int lf = (bj > 0) ? bj - 1 : bj;
#pragma omp task depend(in: g[up * B * n + bj * B], g[bi * B * n + lf * B]) depend(inout: g[bi * B * n + bj * B])
          {
            for (int i = bi * B; i < bi * B + B; i++) {
              for (int j = bj * B; j < bj * B + B; j++) {
                long u = (i > 0) ? g[(i - 1) * n + j] : 1;
                long l = (j > 0) ? g[i * n + j - 1] : 1;
                g[i * n + j] = (u + 2 * l + i * j) % 1009;
              }
            }
          }
        }
      }
    }
  }
  long sum = 0;
  for (int i = 0; i < n * n; i++) {
    if (g[i] != ref[i]) fails++;
    sum += g[i];
  }
  free(g);
  free(ref);
  if (fails) {
    printf("FAIL omp_task_wavefront %d\n", fails);
    return 1;
  }
  printf("ok omp_task_wavefront %ld %ld\n", sum, sum % 1009);
  return 0;
}
