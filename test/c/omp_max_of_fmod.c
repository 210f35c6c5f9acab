// A max reduction over fmod and floor of values read at shifted indices: its loop, with
// fmod as an frem instruction, made LLVM's loop vectoriser abort (its two cost models
// disagreed); fmod is a call to libm's, as x86 code computes an frem anyway.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 22

int main(void) {
  long *steps = malloc(N * sizeof(long));
  double *values = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    steps[i] = (i * 7) % 11 - 5;
    values[i] = i * 1.75 - 20;
  }
  double top = 0;
#pragma omp parallel for reduction(max: top)
  for (int i = 0; i < N; i++)
    top = fmax(top, fmod(floor(values[(i + 4) % N] * 0.25) + steps[(i + 4) % N] * i, 1009.0));
  double expect = 0;
  for (int i = 0; i < N; i++)
    expect = fmax(expect, fmod(floor(values[(i + 4) % N] * 0.25) + steps[(i + 4) % N] * i, 1009.0));
  free(steps);
  free(values);
  if (top != expect) {
    printf("FAIL omp_max_of_fmod %g %g\n", top, expect);
    return 1;
  }
  printf("ok omp_max_of_fmod %g\n", top);
  return 0;
}
