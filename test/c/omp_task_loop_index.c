// Default data sharing of loop indices: variables declared inside the
// single block (the for-loop indices i and j, a counter c declared before
// its loop, and a value computed in the loop body) are firstprivate in the
// tasks, so each task sees the values from when it was created even though
// the loops have moved on (no taskwait until after all loops).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 40;
  int m = 25;
  int fails = 0;
  int *grid = (int *)malloc(n * m * sizeof(int));
  int *row = (int *)malloc(n * sizeof(int));
  long *sq = (long *)malloc(n * sizeof(long));
  for (int i = 0; i < n * m; i++)
    grid[i] = -1;
  for (int i = 0; i < n; i++) {
    row[i] = -1;
    sq[i] = -1;
  }
#pragma omp parallel
  {
#pragma omp single
    {
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
#pragma omp task
          grid[i * m + j] = i * 100 + j;
        }
      }
      int c;
      for (c = 0; c < n; c++) {
#pragma omp task
        row[c] = c * 3;
      }
      for (int k = 0; k < n; k++) {
        long k2 = (long)k * k;
#pragma omp task
        {
          sq[k] = k2 + k;
        }
        k2 = -7;
      }
#pragma omp taskwait
    }
  }
  long total = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) {
      if (grid[i * m + j] != i * 100 + j) fails++;
      total += grid[i * m + j];
    }
    if (row[i] != i * 3) fails++;
    if (sq[i] != (long)i * i + i) fails++;
    total += row[i] + sq[i];
  }
  free(grid);
  free(row);
  free(sq);
  if (fails) {
    printf("FAIL omp_task_loop_index %d\n", fails);
    return 1;
  }
  printf("ok omp_task_loop_index %ld\n", total);
  return 0;
}
