// collapse over non-rectangular nests (5.0): an inner loop whose bounds use an outer
// loop's variable.  A triangle counted with a reduction, the upper triangle of a matrix
// written once per element, and a collapse(3) nest whose innermost loop depends on the
// middle one; every element is written exactly once, whatever thread runs it.
#include <stdio.h>

#define N 24

int main(void) {
  int fails = 0;
  long cells = 0;
#pragma omp parallel for collapse(2) reduction(+: cells)
  for (int i = 0; i < N; i++)
    for (int j = i; j < N; j++)
      cells += 1;
  if (cells != N * (N + 1) / 2) fails++;

  int upper[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      upper[i][j] = 0;
#pragma omp parallel
  {
#pragma omp for collapse(2)
    for (int i = 0; i < N; i++)
      for (int j = i + 1; j < N; j++)
        upper[i][j] += i * N + j;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      if (upper[i][j] != (j > i ? i * N + j : 0)) fails++;

  int cube[6][6][6];
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 6; k++)
        cube[i][j][k] = -1;
#pragma omp parallel for collapse(3)
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k <= j; k++)
        cube[i][j][k] = i + j + k;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 6; k++)
        if (cube[i][j][k] != (k <= j ? i + j + k : -1)) fails++;

  if (fails) {
    printf("FAIL omp_collapse_triangle %d %ld\n", fails, cells);
    return 1;
  }
  printf("ok omp_collapse_triangle %ld\n", cells);
  return 0;
}
