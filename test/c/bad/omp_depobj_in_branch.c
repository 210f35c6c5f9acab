// EXPECT-ERROR: 16:1: depend object 'o' was set by a depobj directive in a branch or loop this construct is not inside (unsupported: set it where its uses can see it on every path)
// Which item `o` stands for would depend on the path taken.
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int x = 0, y = 0;
  omp_depend_t o;
#pragma omp depobj(o) depend(inout: x)
  if (argc > 1) {
#pragma omp depobj(o) depend(inout: y)
  }
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(depobj: o) shared(x)
    x++;
  }
  printf("%d %d\n", x, y);
  return 0;
}
