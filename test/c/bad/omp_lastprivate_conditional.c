// EXPECT-ERROR: 9:1: unsupported C construct: lastprivate(conditional: ...) on omp for
// lastprivate with the conditional modifier on an 'omp for' inside a region (a 'parallel
// for' takes it).
#include <stdio.h>

int main(void) {
  int x = 0, a[16];
#pragma omp parallel
#pragma omp for lastprivate(conditional: x)
  for (int k = 0; k < 16; k++) {
    a[k] = k;
    if (k == 3)
      x = a[k];
  }
  printf("%d\n", x);
  return 0;
}
