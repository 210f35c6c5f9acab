// Two named critical sections, critical(lo) and critical(hi), guarding two
// different shared scalars in one parallel for: small values go to lo_sum,
// large ones to hi_sum.  Both sums and counts are checked against a
// sequential pass.
#include <stdio.h>

int main(void) {
  int n = 25000;
  int fails = 0;
  long lo_sum = 0, hi_sum = 0;
  int lo_cnt = 0, hi_cnt = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int v = (i * 31) % 1000;
    if (v < 500) {
#pragma omp critical(lo)
      {
        lo_sum += v;
        lo_cnt++;
      }
    } else {
#pragma omp critical(hi)
      {
        hi_sum += v;
        hi_cnt++;
      }
    }
  }
  long lo_e = 0, hi_e = 0;
  int lo_ce = 0, hi_ce = 0;
  for (int i = 0; i < n; i++) {
    int v = (i * 31) % 1000;
    if (v < 500) {
      lo_e += v;
      lo_ce++;
    } else {
      hi_e += v;
      hi_ce++;
    }
  }
  if (lo_sum != lo_e || lo_cnt != lo_ce) fails++;
  if (hi_sum != hi_e || hi_cnt != hi_ce) fails++;
  if (lo_cnt + hi_cnt != n) fails++;
  if (fails) {
    printf("FAIL omp_critical_named %ld %ld %d %d\n", lo_sum, hi_sum, lo_cnt, hi_cnt);
    return 1;
  }
  printf("ok omp_critical_named %ld %ld %d %d\n", lo_sum, hi_sum, lo_cnt, hi_cnt);
  return 0;
}
