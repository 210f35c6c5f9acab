// A read-only global array read on the host before and after a region of tasks that follows a time loop of parallel fors.
#include <stdio.h>

static long g[2] = {3, 4};
static long h[4];

int main(void)
{
  long cs = 0;
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
#pragma omp taskgroup
      {
#pragma omp task depend(out: b[0])
        {
          b[0] = 1.0;
        }
      }
    }
  }
  for (int i = 0; i < 2; i++) {
    cs = cs * 7 + g[i];
  }
  printf("cs %ld h %ld b %.1f %.1f\n", cs, h[3], b[0], b[3]);
  return 0;
}
