// for (int i = lb; i < ub; i++) with constant, variable and expression bounds,
// non-zero lower bounds, empty ranges, and i++ vs ++i in the step.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int n = 100;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  if (s != 4950) fails++;
  int t = 0;
  for (int i = 10; i < 2 * n - 150; ++i) /* 10 .. 49 */
    t++;
  if (t != 40) fails++;
  int empty = 0;
  for (int i = 5; i < 5; i++)
    empty++;
  for (int i = 9; i < 3; i++)
    empty++;
  if (empty != 0) fails++;
  int neg = 0;
  for (int i = -10; i < -5; i++)
    neg += i;
  if (neg != -40) fails++;
  long ls = 0;
  for (long i = 0; i < 3000000000L; i += 1000000000L) /* long induction */
    ls += i;
  if (ls != 3000000000L) fails++;
  if (fails) {
    printf("FAIL for_lt_inc %d\n", fails);
    return 1;
  }
  printf("ok for_lt_inc %ld %d %d\n", s, t, neg);
  return 0;
}
