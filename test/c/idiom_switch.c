// Benchmark idiom: a switch on i % 4 inside a parallel for body, with a
// break in each case, a fall-through from case 2 into case 3 and a
// default.  Compared with the same values computed by an if/else chain.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 20000;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    long v = 0;
    switch (i % 4) {
    case 0:
      v = i;
      break;
    case 1:
      v = 2L * i;
      break;
    case 2:
      v = 100; /* falls through */
    case 3:
      v += 7;
      break;
    default:
      v = -1;
      break;
    }
    a[i] = v;
  }
  long s = 0;
  for (int i = 0; i < n; i++) {
    long e;
    int r = i % 4;
    if (r == 0) e = i;
    else if (r == 1) e = 2L * i;
    else if (r == 2) e = 107;
    else e = 7;
    if (a[i] != e) fails++;
    s += a[i];
  }
  free(a);
  if (fails) {
    printf("FAIL idiom_switch %d\n", fails);
    return 1;
  }
  printf("ok idiom_switch %ld\n", s);
  return 0;
}
