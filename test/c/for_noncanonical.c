// for loops that are not in canonical form: multiplicative step, a condition
// with &&, the bound changing in the body, the induction variable modified in
// the body, and for (;;) with break.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int c = 0;
  for (int i = 1; i < 1000; i *= 3) /* 1 3 9 27 81 243 729 */
    c++;
  if (c != 7) fails++;
  int s = 0;
  int a[10] = {1, 2, 3, 4, 5, -1, 7, 8, 9, 10};
  for (int i = 0; i < 10 && a[i] > 0; i++)
    s += a[i];
  if (s != 15) fails++;
  int n = 10;
  int iters = 0;
  for (int i = 0; i < n; i++) {
    if (i == 2)
      n = 5; /* shrinking bound */
    iters++;
  }
  if (iters != 5) fails++;
  int skip = 0;
  for (int i = 0; i < 20; i++) {
    if (i % 5 == 0)
      i += 2; /* jump ahead inside the body */
    skip++;
  }
  /* bodies run at i = 0(->2), 3, 4, 5(->7), 8, 9, 10(->12), 13, 14,
     15(->17), 18, 19: 12 iterations */
  if (skip != 12) fails++;
  int forever = 0;
  for (;;) {
    forever++;
    if (forever == 42)
      break;
  }
  if (forever != 42) fails++;
  unsigned int bits = 0x80u;
  int shifts = 0;
  for (unsigned int m = bits; m != 0u; m >>= 1)
    shifts++;
  if (shifts != 8) fails++;
  if (fails) {
    printf("FAIL for_noncanonical %d\n", fails);
    return 1;
  }
  printf("ok for_noncanonical %d %d %d %d %d\n", c, s, iters, skip, forever);
  return 0;
}
