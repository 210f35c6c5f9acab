// EXPECT-ERROR: 9:1: unsupported C construct: omp task
// OpenMP tasks are not in the first version of the subset.
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel
  {
#pragma omp task
    x = 42;
  }
  printf("%d\n", x);
  return 0;
}
