// EXPECT-ERROR: 9:1: unsupported C construct: omp atomic
// OpenMP atomics are not in the subset yet.
#include <stdio.h>

int main(void) {
  int x = 0;
#pragma omp parallel
  {
#pragma omp atomic
    x += 1;
  }
  printf("%d\n", x);
  return 0;
}
