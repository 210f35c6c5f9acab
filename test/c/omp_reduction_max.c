// reduction(max: ...) on int and double, compared with a sequential scan;
// max is exact, so the result is order-independent.
#include <math.h>
#include <stdio.h>

int main(void) {
  int n = 50000;
  int fails = 0;
  int imax = -1000000;
#pragma omp parallel for reduction(max : imax)
  for (int i = 0; i < n; i++) {
    int v = (int)(((long)i * 7919L) % 10007L) - 5000;
    if (v > imax)
      imax = v;
  }
  double dmax = -1e300;
#pragma omp parallel for reduction(max : dmax) schedule(static)
  for (int i = 0; i < n; i++)
    dmax = fmax(dmax, sin(i * 0.37) * cos(i * 0.11));
  int iref = -1000000;
  double dref = -1e300;
  for (int i = 0; i < n; i++) {
    int v = (int)(((long)i * 7919L) % 10007L) - 5000;
    if (v > iref)
      iref = v;
    dref = fmax(dref, sin(i * 0.37) * cos(i * 0.11));
  }
  if (imax != iref || dmax != dref) fails++;
  if (fails) {
    printf("FAIL omp_reduction_max %d\n", fails);
    return 1;
  }
  printf("ok omp_reduction_max %d %.6f\n", imax, dmax);
  return 0;
}
