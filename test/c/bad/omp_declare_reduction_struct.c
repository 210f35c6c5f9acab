// EXPECT-ERROR: 8:1: unsupported C construct: omp declare reduction 'cadd' with combiner 'omp_out.re += omp_in.re, omp_out.im += omp_in.im' (a combiner of a built-in operator is supported: 'omp_out += omp_in', 'omp_out = omp_out * omp_in', 'omp_out = fmax(omp_out, omp_in)', 'omp_out = omp_out > omp_in ? omp_out : omp_in', ...)
// A declared reduction is read as the built-in operator its combiner is; a combiner of
// struct fields is none.
#include <stdio.h>

typedef struct { double re, im; } cplx;

#pragma omp declare reduction(cadd : cplx : omp_out.re += omp_in.re, omp_out.im += omp_in.im) initializer(omp_priv = {0, 0})

int main(void) {
  cplx z = {0, 0};
#pragma omp parallel for reduction(cadd : z)
  for (int i = 0; i < 10; i++) {
    z.re += 1;
    z.im += 2;
  }
  printf("%g %g\n", z.re, z.im);
  return 0;
}
