// EXPECT-ERROR: 8:1: unsupported C construct: masked filter(...) other than 0
// A masked region for a thread other than the primary one.
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel
#pragma omp masked filter(1)
  x = 1;
  printf("%d\n", x);
  return 0;
}
