// A read-only global array read on the host before and after a task of a master block that follows a time loop of parallel fors.
#include <stdio.h>

static long g[2] = {3, 4};
static long h[4];

int main(void)
{
  double b[4];
  for (int t = 0; t < 2; t++) {
#pragma omp parallel for
    for (int i = 0; i < 4; i++) {
      h[i] = t + i;
    }
  }
  b[3] = g[1];
#pragma omp parallel
  {
#pragma omp master
    {
#pragma omp task
      {
        b[0] = 1.0;
      }
    }
  }
  long cs = g[0];
  printf("cs %ld h %ld b %.1f %.1f\n", cs, h[3], b[0], b[3]);
  return 0;
}
