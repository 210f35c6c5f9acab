// Shifts: << and >> on int, unsigned, long; arithmetic right shift of
// negative signed values (gcc/clang semantics), shift by a variable amount.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int one = 1;
  int acc = 0;
  for (int k = 0; k < 31; k++)
    acc += (one << k) >> k;
  if (acc != 31) fails++;
  if ((5 << 3) != 40) fails++;
  if ((40 >> 3) != 5) fails++;
  int neg = -40;
  if ((neg >> 3) != -5) fails++;   /* arithmetic */
  if ((neg >> 10) != -1) fails++;
  unsigned int u = 0x80000000u;
  if ((u >> 31) != 1u) fails++;    /* logical */
  long l = 1L << 62;
  if ((l >> 60) != 4L) fails++;
  long nl = -(1L << 40);
  if ((nl >> 39) != -2L) fails++;
  unsigned long ul = 1UL << 63;
  if ((ul >> 62) != 2UL) fails++;
  int s = 3;
  unsigned int masks = 0;
  for (int k = 0; k < 32; k += s)
    masks |= 1u << k;
  /* bits 0,3,...,30 set: 11 bits */
  int bits = 0;
  for (int k = 0; k < 32; k++)
    bits += (int)((masks >> k) & 1u);
  if (bits != 11) fails++;
  if (fails) {
    printf("FAIL shifts %d\n", fails);
    return 1;
  }
  printf("ok shifts %d %u %d\n", neg >> 3, masks, bits);
  return 0;
}
