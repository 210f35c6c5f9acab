// Loops with >= and a step of -= k: down to and including the bound, with
// constant and variable strides, and on unsigned-safe ranges.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int s = 0;
  for (int i = 100; i >= 0; i -= 25) /* 100 75 50 25 0 */
    s += i;
  if (s != 250) fails++;
  int cnt = 0;
  int stride = 3;
  int last = 0;
  for (int i = 20; i >= 1; i -= stride) /* 20 17 14 11 8 5 2 */
  {
    cnt++;
    last = i;
  }
  if (cnt != 7 || last != 2) fails++;
  int digits = 0;
  for (int i = 9; i >= 0; i--)
    digits = (digits * 10 + i) % 1000000;
  if (digits != 543210) fails++;
  double d = 0.0;
  for (int i = 64; i >= 1; i -= (i + 1) / 2) /* 64 32 16 8 4 2 1 */
    d += i;
  if (d != 127.0) fails++;
  if (fails) {
    printf("FAIL for_ge_minus %d\n", fails);
    return 1;
  }
  printf("ok for_ge_minus %d %d %d %.0f\n", s, cnt, digits, d);
  return 0;
}
