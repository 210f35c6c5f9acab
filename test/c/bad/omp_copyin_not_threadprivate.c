// EXPECT-ERROR: 8:1: copyin variable 'x' is not threadprivate
// copyin names a variable that is not threadprivate.
#include <stdio.h>

int x = 1;

int main(void) {
#pragma omp parallel copyin(x)
  printf("%d\n", x);
  return 0;
}
