// Several reductions on one loop: reduction(+: a, b) with reduction(max: m)
// and reduction(min: lo) as separate clauses, plus schedule on the same
// directive.
#include <stdio.h>

int main(void) {
  int n = 30000;
  int fails = 0;
  long count = 0;
  long total = 0;
  int hi = -1;
  int lo = 1 << 30;
#pragma omp parallel for reduction(+ : count, total) reduction(max : hi) reduction(min : lo) schedule(guided)
  for (int i = 0; i < n; i++) {
    int v = (i * 101) % 997;
    if (v % 2 == 0) {
      count += 1;
      total += v;
    }
    if (v > hi)
      hi = v;
    if (v < lo)
      lo = v;
  }
  long rc = 0;
  long rt = 0;
  for (int i = 0; i < n; i++) {
    int v = (i * 101) % 997;
    if (v % 2 == 0) {
      rc++;
      rt += v;
    }
  }
  if (count != rc || total != rt || hi != 996 || lo != 0) fails++;
  if (fails) {
    printf("FAIL omp_reduction_multi %d\n", fails);
    return 1;
  }
  printf("ok omp_reduction_multi %ld %ld %d %d\n", count, total, hi, lo);
  return 0;
}
