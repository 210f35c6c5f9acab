// All relational and equality operators on int, unsigned, long, float and
// double, mixed types, and comparison results used as integers.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int lt = 0, le = 0, gt = 0, ge = 0, eq = 0, ne = 0;
  for (int a = -3; a <= 3; a++)
    for (int b = -3; b <= 3; b++) {
      lt += a < b;
      le += a <= b;
      gt += a > b;
      ge += a >= b;
      eq += a == b;
      ne += a != b;
    }
  /* 49 pairs: 21 less, 7 equal, 21 greater */
  if (lt != 21 || le != 28 || gt != 21 || ge != 28 || eq != 7 || ne != 42) fails++;
  float fa = 0.5f;
  double db = 0.5;
  if (!(fa == db) || fa != db || fa < db || fa > db) fails++;
  if (!(fa <= db) || !(fa >= db)) fails++;
  unsigned int ua = 5u;
  unsigned int ub = 7u;
  if (!(ua < ub) || ua >= ub || (ua - ub) < ua) fails++; /* ua - ub wraps huge */
  long la = -5000000000L;
  if (!(la < 0) || la >= -4999999999L) fails++;
  double x = 1.0 / 3.0;
  if (x * 3.0 != 1.0) fails++; /* happens to be exact in binary64 */
  int count = (1 < 2) + (2 <= 2) + (3 > 4) + (5 >= 6) + (7 == 7) + (8 != 8);
  if (count != 3) fails++;
  if (fails) {
    printf("FAIL comparisons %d\n", fails);
    return 1;
  }
  printf("ok comparisons %d %d %d %d %d %d\n", lt, le, gt, ge, eq, ne);
  return 0;
}
