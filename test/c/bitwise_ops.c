// Bitwise &, |, ^, ~ on int, unsigned and long: population count, parity,
// bit reversal, xor swap, masks, and De Morgan identities checked over a range.
#include <stdio.h>

static int popcount(unsigned int x) {
  int c = 0;
  while (x != 0u) {
    x &= x - 1u; /* clear lowest set bit */
    c++;
  }
  return c;
}

static unsigned int reverse_bits(unsigned int x) {
  unsigned int r = 0u;
  for (int i = 0; i < 32; i++) {
    r = (r << 1) | (x & 1u);
    x >>= 1;
  }
  return r;
}

int main(void) {
  int fails = 0;
  if (popcount(0xFFu) != 8 || popcount(0u) != 0 || popcount(0x80000001u) != 2)
    fails++;
  if (reverse_bits(1u) != 0x80000000u) fails++;
  if (reverse_bits(0x0000F00Fu) != 0xF00F0000u) fails++;
  int a = 0x5A;
  int b = 0x3C;
  if ((a & b) != 0x18 || (a | b) != 0x7E || (a ^ b) != 0x66) fails++;
  if (~0 != -1 || ~a != -0x5B) fails++;
  /* xor swap */
  a ^= b;
  b ^= a;
  a ^= b;
  if (a != 0x3C || b != 0x5A) fails++;
  for (int x = -50; x < 50; x++)
    for (int y = -50; y < 50; y += 7) {
      if (~(x & y) != (~x | ~y)) fails++;
      if (~(x | y) != (~x & ~y)) fails++;
      if ((x ^ y) != ((x | y) & ~(x & y))) fails++;
    }
  long lm = 0x0F0F0F0F0F0F0F0FL;
  if ((lm & (lm << 4)) != 0L) fails++;
  int parity = popcount(0xDEADBEEFu) & 1;
  if (fails) {
    printf("FAIL bitwise_ops %d\n", fails);
    return 1;
  }
  printf("ok bitwise_ops %d %d %u\n", popcount(0xDEADBEEFu), parity,
         reverse_bits(0xDEADBEEFu));
  return 0;
}
