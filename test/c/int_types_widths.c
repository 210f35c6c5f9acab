// Every integer type: char, signed char, unsigned char, short, unsigned short,
// int, unsigned, long, unsigned long, long long, unsigned long long, size_t;
// their sizes and the truncation / sign extension of conversions between them.
#include <stddef.h>
#include <stdio.h>

int main(void) {
  int fails = 0;
  if (sizeof(char) != 1 || sizeof(short) != 2 || sizeof(int) != 4) fails++;
  if (sizeof(long) != 8 || sizeof(long long) != 8 || sizeof(size_t) != 8) fails++;

  signed char sc = (signed char)200;      /* 200 - 256 */
  unsigned char uc = (unsigned char)300;  /* 300 - 256 */
  short s = (short)70000;                 /* 70000 - 65536 */
  unsigned short us = (unsigned short)-1; /* 65535 */
  int i = (int)3000000000u;               /* wraps negative */
  unsigned int u = (unsigned int)-2;      /* 4294967294 */
  long l = (long)i;                       /* sign-extends */
  unsigned long ul = (unsigned long)u;    /* zero-extends */
  long long ll = (long long)s * 1000000;
  unsigned long long ull = 18446744073709551615ULL;
  size_t sz = (size_t)40 * sizeof(double);
  char c = 'a';

  if (sc != -56) fails++;
  if (uc != 44) fails++;
  if (s != 4464) fails++;
  if (us != 65535) fails++;
  if (i != -1294967296) fails++;
  if (u != 4294967294u) fails++;
  if (l != -1294967296L) fails++;
  if (ul != 4294967294UL) fails++;
  if (ll != 4464000000LL) fails++;
  if (ull + 1 != 0) fails++;
  if (sz != 320) fails++;
  if (c + 1 != 'b') fails++;
  /* promotions: unsigned char and short arithmetic is done in int */
  unsigned char a8 = 250;
  unsigned char b8 = 10;
  int wide = a8 + b8;
  unsigned char narrow = (unsigned char)(a8 + b8);
  if (wide != 260 || narrow != 4) fails++;
  short hs = 30000;
  int hsum = hs + hs;
  if (hsum != 60000) fails++;
  if (fails) {
    printf("FAIL int_types_widths %d\n", fails);
    return 1;
  }
  printf("ok int_types_widths %d %d %d %u %ld %lld %zu\n", (int)sc, (int)uc,
         (int)s, u, l, ll, sz);
  return 0;
}
