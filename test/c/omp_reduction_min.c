// reduction(min: ...) on int, long and float, compared with a sequential
// scan.
#include <stdio.h>

int main(void) {
  int n = 40000;
  int fails = 0;
  int imin = 1000000;
  long lmin = 1L << 60;
  float fmin_v = 1e30f;
#pragma omp parallel for reduction(min : imin, lmin)
  for (int i = 0; i < n; i++) {
    int v = (i * 37 + 11) % 9973 - 4000;
    long w = ((long)i - 20000L) * ((long)i - 21234L); /* minimum near i = 20617 */
    if (v < imin)
      imin = v;
    if (w < lmin)
      lmin = w;
  }
#pragma omp parallel for reduction(min : fmin_v) schedule(dynamic, 64)
  for (int i = 0; i < n; i++) {
    float f = (float)((i * 13) % 1001) * 0.25f - 100.0f;
    if (f < fmin_v)
      fmin_v = f;
  }
  long lref = 1L << 60;
  for (int i = 0; i < n; i++) {
    long w = ((long)i - 20000L) * ((long)i - 21234L);
    if (w < lref)
      lref = w;
  }
  if (imin != -4000 || lmin != lref || lmin != -617L * 617L || fmin_v != -100.0f) fails++;
  if (fails) {
    printf("FAIL omp_reduction_min %d %d %ld %f\n", fails, imin, lmin, fmin_v);
    return 1;
  }
  printf("ok omp_reduction_min %d %ld %.2f\n", imin, lmin, fmin_v);
  return 0;
}
