// EXPECT-ERROR: 7:1: unsupported C construct: lastprivate(conditional: ...)
// lastprivate with the conditional modifier (the value of the last iteration that set it).
#include <stdio.h>

int main(void) {
  int x = 0, a[16];
#pragma omp parallel for lastprivate(conditional: x)
  for (int k = 0; k < 16; k++) {
    a[k] = k;
    if (k == 3)
      x = a[k];
  }
  printf("%d\n", x);
  return 0;
}
