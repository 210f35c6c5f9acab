// EXPECT-ERROR: 9:1: unsupported C construct: omp target
// Device offloading is not in the subset.
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel
  {
#pragma omp target
    x += 1;
  }
  printf("%d\n", x);
  return 0;
}
