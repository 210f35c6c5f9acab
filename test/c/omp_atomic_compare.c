/* omp atomic compare: the min/max forms (as a conditional expression and as an if, with x on
   either side of < or >) on integers and doubles, and the conditional swap forms (==). */
#include <stdio.h>

#define N 1000

int main(void) {
  int lo = 1 << 30, hi = -1, swapped = 0, claimed = -1;
  double dlo = 1e30, dhi = -1e30;
  long total = 0;
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int v = (i * 37) % 1009;
    double d = 0.5 * v;
#pragma omp atomic compare
    lo = v < lo ? v : lo;
#pragma omp atomic compare
    if (hi < v) { hi = v; }
#pragma omp atomic compare
    dhi = dhi < d ? d : dhi;
#pragma omp atomic compare
    if (d < dlo) { dlo = d; }
#pragma omp atomic compare
    swapped = swapped == 0 ? 7 : swapped;
#pragma omp atomic compare
    if (claimed == -1) { claimed = 1; }
#pragma omp atomic
    total += v;
  }
  long want = 0;
  int wlo = 1 << 30, whi = -1;
  for (int i = 0; i < N; i++) {
    int v = (i * 37) % 1009;
    want += v;
    wlo = v < wlo ? v : wlo;
    whi = v > whi ? v : whi;
  }
  if (lo != wlo || hi != whi || dlo != 0.5 * wlo || dhi != 0.5 * whi || swapped != 7 ||
      claimed != 1 || total != want) {
    printf("FAIL omp_atomic_compare %d %d %g %g %d %d %ld\n", lo, hi, dlo, dhi, swapped, claimed,
           total);
    return 1;
  }
  printf("ok omp_atomic_compare %d %d\n", lo, hi);
  return 0;
}
