// EXPECT-ERROR: 8:1: unsupported C construct: linear variable 'x' (an integer variable is supported)
// A floating-point linear variable: its value per iteration would be x0 + k * step rounded.
#include <stdio.h>

int main(void) {
  double a[8];
  double x = 0.5;
#pragma omp parallel for simd linear(x: 1)
  for (int i = 0; i < 8; i++) {
    a[i] = x;
    x += 1.0;
  }
  printf("%f\n", a[7]);
  return 0;
}
