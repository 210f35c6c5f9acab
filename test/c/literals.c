// Literal forms: decimal, hex, octal, integer suffixes (u, l, ul, ll, ull),
// floating literals with exponents and the f suffix, character literals.
#include <stdio.h>

int main(void) {
  int fails = 0;
  if (0x1F != 31 || 0XfF != 255 || 017 != 15 || 0 != 00) fails++;
  if (10u != 10 || 10l != 10 || 10UL != 10 || 10LL != 10 || 10ULL != 10) fails++;
  if (sizeof(10u) != 4 || sizeof(10l) != 8 || sizeof(10ll) != 8) fails++;
  if (0x7FFFFFFF != 2147483647 || 0xFFFFFFFFu != 4294967295u) fails++;
  if (1e3 != 1000.0 || 2.5e-1 != 0.25 || 1E2f != 100.0f || .5 != 0.5 || 3. != 3.0) fails++;
  if (1.5f * 2 != 3.0f) fails++;
  if ('A' != 65 || 'a' - 'A' != 32 || '\x41' != 'A' || '\101' != 'A') fails++;
  long big = 0x7FFFFFFFFFFFFFFFL;
  if ((unsigned long)big + 1UL != 1UL << 63) fails++;
  if (fails) {
    printf("FAIL literals %d\n", fails);
    return 1;
  }
  printf("ok literals %d %d %ld %.3f\n", 0x1F, 017, big, 2.5e-1);
  return 0;
}
