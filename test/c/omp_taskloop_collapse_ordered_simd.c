// taskloop collapse(2): the chunks share the outer loop, each running the inner one whole,
// so every element is written once; `ordered simd` inside a simd loop keeps the
// iterations' order (a counter the block advances sees them in sequence).
#include <stdio.h>

int main(void) {
  int fails = 0;
  int a[6][7];
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 7; j++)
      a[i][j] = -1;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop collapse(2) grainsize(4)
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 7; j++)
      a[i][j] = i * 7 + j;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 7; j++)
      if (a[i][j] != i * 7 + j) fails++;

  int order[16], pos = 0;
#pragma omp simd
  for (int i = 0; i < 16; i++) {
#pragma omp ordered simd
    order[pos++] = i;
  }
  for (int i = 0; i < 16; i++)
    if (order[i] != i) fails++;

  if (fails) {
    printf("FAIL omp_taskloop_collapse_ordered_simd %d\n", fails);
    return 1;
  }
  printf("ok omp_taskloop_collapse_ordered_simd %d %d\n", a[5][6], pos);
  return 0;
}
