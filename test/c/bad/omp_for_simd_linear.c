// EXPECT-ERROR: 8:1: unsupported C construct: 'linear' clause on omp parallel for simd
// A linear variable of a loop the threads share (its value per iteration is the index's).
#include <stdio.h>

int main(void) {
  int a[8];
  int j = 0;
#pragma omp parallel for simd linear(j: 1)
  for (int i = 0; i < 8; i++) {
    a[i] = j;
    j++;
  }
  printf("%d\n", a[7]);
  return 0;
}
