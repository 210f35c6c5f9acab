/* Real benchmark code checks its allocations and returns early before allocating a row
   table's rows: `float **x = malloc(...); if (!x || !gamma) return 1;` then a loop of
   row mallocs, then the parallel loops over the table. */
#include <stdio.h>
#include <stdlib.h>

#define B 8
#define F 100

static int run(void) {
  float **x = (float **)malloc(B * sizeof(float *));
  float *gamma = (float *)malloc(F * sizeof(float));
  if (!x || !gamma)
    return 1;
  for (int b = 0; b < B; b++)
    x[b] = (float *)malloc(F * sizeof(float));
  for (int f = 0; f < F; f++)
    gamma[f] = (float)f;
#pragma omp parallel for
  for (int b = 0; b < B; b++)
    for (int f = 0; f < F; f++)
      x[b][f] = gamma[f] * (float)b;
  double sum = 0.0;
  for (int b = 0; b < B; b++)
    for (int f = 0; f < F; f++)
      sum += x[b][f];
  for (int b = 0; b < B; b++)
    free(x[b]);
  free(x);
  free(gamma);
  double want = 0.0;
  for (int b = 0; b < B; b++)
    want += (double)b * (F * (F - 1) / 2);
  if (sum != want) {
    printf("FAIL idiom_null_check_return %.1f %.1f\n", sum, want);
    return 2;
  }
  printf("ok idiom_null_check_return %.1f\n", sum);
  return 0;
}

int main(void) { return run(); }
