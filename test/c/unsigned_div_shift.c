// Unsigned division, modulo, right shift (logical) and comparisons, where the
// results differ from the signed operations on the same bits.
#include <stdio.h>

int main(void) {
  int fails = 0;
  unsigned int a = 0xFFFFFFF0u; /* -16 as int */
  int sa = (int)a;
  if (a / 16u != 0x0FFFFFFFu) fails++;
  if (sa / 16 != -1) fails++;
  if (a % 7u != 4294967280u % 7u) fails++;
  if (a % 7u != 2u) fails++; /* 4294967280 = 7 * 613566754 + 2 */
  if (a >> 4 != 0x0FFFFFFFu) fails++;
  if (sa >> 4 != -1) fails++;
  /* comparison: as unsigned a is huge, as signed it is negative */
  if (!(a > 100u)) fails++;
  if (!(sa < 100)) fails++;
  unsigned long ul = 0xFFFFFFFFFFFFFFFFUL;
  if (ul >> 63 != 1UL) fails++;
  if (ul / 3UL != 6148914691236517205UL) fails++;
  unsigned char uc = 200;
  if (uc / 3 != 66) fails++;
  if (uc % 3 != 2) fails++;
  if (fails) {
    printf("FAIL unsigned_div_shift %d\n", fails);
    return 1;
  }
  printf("ok unsigned_div_shift %u %u %lu\n", a / 16u, a % 7u, ul / 3UL);
  return 0;
}
