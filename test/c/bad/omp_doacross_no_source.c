// EXPECT-ERROR: 10:1: a doacross 'ordered depend(sink: ...)' needs an 'ordered depend(source)' after it in the same loop body
// A sink point that no source point closes: nothing would say when an iteration is done.
#include <stdio.h>

int main(void) {
  double a[64];
  a[0] = 1.0;
#pragma omp parallel for ordered(1)
  for (int i = 1; i < 64; i++) {
#pragma omp ordered depend(sink: i - 1)
    a[i] = a[i - 1] + 1.0;
  }
  printf("%f\n", a[63]);
  return 0;
}
