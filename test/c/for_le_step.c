// for loops with <= and a step of += k (constant and variable k), where the
// bound is or is not reached exactly.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int s = 0;
  for (int i = 0; i <= 100; i += 10) /* 0, 10, ..., 100 */
    s += i;
  if (s != 550) fails++;
  int cnt = 0;
  for (int i = 1; i <= 20; i += 3) /* 1, 4, 7, 10, 13, 16, 19 */
    cnt++;
  if (cnt != 7) fails++;
  int k = 4;
  int last = -1;
  for (int i = 2; i <= 17; i += k) /* 2, 6, 10, 14 */
    last = i;
  if (last != 14) fails++;
  int incl = 0;
  for (int i = 5; i <= 5; i++)
    incl++;
  if (incl != 1) fails++;
  double acc = 0.0;
  for (int i = 1; i <= 64; i += i) /* doubling: 1 2 4 ... 64 (non-constant step) */
    acc += i;
  if (acc != 127.0) fails++;
  if (fails) {
    printf("FAIL for_le_step %d\n", fails);
    return 1;
  }
  printf("ok for_le_step %d %d %d %.0f\n", s, cnt, last, acc);
  return 0;
}
