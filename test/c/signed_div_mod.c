// Signed division truncates toward zero and % takes the sign of the
// dividend, for int and long, with every sign combination; the identity
// (a / b) * b + a % b == a.
#include <stdio.h>

int main(void) {
  int fails = 0;
  if (7 / 2 != 3 || 7 % 2 != 1) fails++;
  int a = -7;
  int b = 2;
  if (a / b != -3 || a % b != -1) fails++;
  a = 7;
  b = -2;
  if (a / b != -3 || a % b != 1) fails++;
  a = -7;
  b = -2;
  if (a / b != 3 || a % b != -1) fails++;
  long la = -1000000000000L;
  long lb = 7L;
  if (la / lb != -142857142857L || la % lb != -1L) fails++;
  int checked = 0;
  for (int x = -20; x <= 20; x++)
    for (int y = -5; y <= 5; y++) {
      if (y == 0)
        continue;
      int q = x / y;
      int r = x % y;
      if (q * y + r != x) fails++;
      if (r != 0 && (r < 0) != (x < 0)) fails++;
      checked++;
    }
  if (fails) {
    printf("FAIL signed_div_mod %d\n", fails);
    return 1;
  }
  printf("ok signed_div_mod %d %d %d\n", -7 / 2, -7 % 2, checked);
  return 0;
}
