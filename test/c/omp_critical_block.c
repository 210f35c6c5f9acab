// A #pragma omp critical block that updates two shared scalars together
// (count and sum) plus a third derived from both: inside the block
// sum == 2 * count + extra must hold at entry (checked, counted in bad),
// which only works if the three updates are not interleaved with another
// thread's.  Totals are compared with closed forms.
#include <stdio.h>

int main(void) {
  int n = 20000;
  int fails = 0;
  long count = 0;
  long sum = 0;
  long extra = 0;
  int bad = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    long w = i % 4;
#pragma omp critical
    {
      if (sum != 2 * count + extra) bad++;
      count += 1;
      sum += 2 + w;
      extra += w;
    }
  }
  /* sum over i of (i % 4) for n divisible by 4: (n / 4) * 6 */
  long wexp = (long)(n / 4) * 6;
  if (count != n) fails++;
  if (extra != wexp) fails++;
  if (sum != 2L * n + wexp) fails++;
  if (bad != 0) fails++;
  if (fails) {
    printf("FAIL omp_critical_block %ld %ld %ld %d\n", count, sum, extra, bad);
    return 1;
  }
  printf("ok omp_critical_block %ld %ld %ld\n", count, sum, extra);
  return 0;
}
