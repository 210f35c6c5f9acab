// Decrementing loops: for (i = ub; i > lb; i--) and --i, down to zero and to
// negative bounds, reversing an array in place through a decreasing index.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int s = 0;
  for (int i = 10; i > 0; i--) /* 10 .. 1 */
    s += i;
  if (s != 55) fails++;
  int order[5];
  int pos = 0;
  for (int i = 4; i > -1; --i)
    order[pos++] = i;
  if (order[0] != 4 || order[4] != 0 || pos != 5) fails++;
  int neg = 0;
  for (int i = -1; i > -6; i--)
    neg += i;
  if (neg != -15) fails++;
  int a[8];
  for (int i = 0; i < 8; i++)
    a[i] = i;
  int b[8];
  for (int i = 7; i > -1; i--)
    b[7 - i] = a[i];
  if (b[0] != 7 || b[7] != 0) fails++;
  int none = 0;
  for (int i = 0; i > 0; i--)
    none++;
  if (none != 0) fails++;
  if (fails) {
    printf("FAIL for_gt_dec %d\n", fails);
    return 1;
  }
  printf("ok for_gt_dec %d %d %d\n", s, neg, b[3]);
  return 0;
}
