// shared(...) on parallel for: arrays and a read-only scalar listed as
// shared explicitly; iterations write disjoint elements of a shared float **
// and a shared 1-D array.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 300;
  int m = 64;
  int fails = 0;
  float factor = 3.0f;
  float **grid = (float **)malloc(n * sizeof(float *));
  for (int i = 0; i < n; i++)
    grid[i] = (float *)malloc(m * sizeof(float));
  float *colmax = (float *)malloc(n * sizeof(float));
#pragma omp parallel for shared(grid, colmax, factor, n, m)
  for (int i = 0; i < n; i++) {
    float best = 0.0f;
    for (int j = 0; j < m; j++) {
      grid[i][j] = factor * (float)((i * 31 + j * 17) % 101);
      if (grid[i][j] > best)
        best = grid[i][j];
    }
    colmax[i] = best;
  }
  double total = 0.0;
  for (int i = 0; i < n; i++) {
    float best = 0.0f;
    for (int j = 0; j < m; j++)
      if (3.0f * (float)((i * 31 + j * 17) % 101) > best)
        best = 3.0f * (float)((i * 31 + j * 17) % 101);
    if (colmax[i] != best)
      fails++;
    total += colmax[i];
  }
  for (int i = 0; i < n; i++)
    free(grid[i]);
  free(grid);
  free(colmax);
  if (fails) {
    printf("FAIL omp_shared %d\n", fails);
    return 1;
  }
  printf("ok omp_shared %.1f\n", total);
  return 0;
}
