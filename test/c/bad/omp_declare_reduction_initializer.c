// EXPECT-ERROR: 5:1: unsupported C construct: omp declare reduction 'plus_one' whose initializer is not the identity of its combiner's operator '+'
// A declared reduction that starts each thread's copy at 1 adds 1 per thread: not '+'.
#include <stdio.h>

#pragma omp declare reduction(plus_one : int : omp_out += omp_in) initializer(omp_priv = 1)

int main(void) {
  int s = 0;
#pragma omp parallel for reduction(plus_one : s)
  for (int i = 0; i < 10; i++)
    s += i;
  printf("%d\n", s);
  return 0;
}
