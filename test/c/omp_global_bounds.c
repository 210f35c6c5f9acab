// A parallel region whose loops run to a global count over a global pointer (the count
// read again by each barrier-separated part), a `for nowait` and a barrier, a reduction into
// a global, a `master` after it; and a function's static table filled on its first call.
#include <stdio.h>
#include <stdlib.h>

double *gp;
int gn;
static double gsum;

static double work(int k) {
  static double table[16];
  static int filled = 0;
  if (!filled) {
    for (int i = 0; i < 16; i++)
      table[i] = i * 0.5;
    filled = 1;
  }
  return table[k % 16];
}

int main(void) {
  gn = 1000;
  gp = malloc(gn * sizeof(double));
  for (int i = 0; i < gn; i++)
    gp[i] = work(i);
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < gn; i++)
      gp[i] *= 2;
#pragma omp barrier
#pragma omp for reduction(+: gsum)
    for (int i = 0; i < gn; i++)
      gsum += gp[i];
#pragma omp master
    gsum += 1;
  }
  double m = 0;
#pragma omp parallel for reduction(max: m)
  for (int i = 0; i < gn; i++)
    if (gp[(i * 7) % gn] > m)
      m = gp[(i * 7) % gn];
  free(gp);
  if (gsum != 7469 || m != 15) {
    printf("FAIL omp_global_bounds %g %g\n", gsum, m);
    return 1;
  }
  printf("ok omp_global_bounds sum=%g max=%g\n", gsum, m);
  return 0;
}
