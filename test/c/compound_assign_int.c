// Every compound assignment on integers: += -= *= /= %= <<= >>= &= |= ^=, on
// locals, array elements (2-D, malloc'd) and globals, with mixed types.
#include <stdio.h>
#include <stdlib.h>

long g_total = 0;

int main(void) {
  int fails = 0;
  int x = 100;
  x += 5;   /* 105 */
  x -= 15;  /* 90 */
  x *= 3;   /* 270 */
  x /= 4;   /* 67 */
  x %= 10;  /* 7 */
  x <<= 4;  /* 112 */
  x >>= 2;  /* 28 */
  x &= 0x1C; /* 28 */
  x |= 0x41; /* 93 */
  x ^= 0xFF; /* 162 */
  if (x != 162) fails++;
  int **m = (int **)malloc(2 * sizeof(int *));
  for (int i = 0; i < 2; i++) {
    m[i] = (int *)malloc(2 * sizeof(int));
    m[i][0] = 1;
    m[i][1] = 2;
  }
  for (int k = 0; k < 5; k++) {
    m[0][0] += k;    /* 1 + 10 */
    m[1][1] *= 2;    /* 2 * 32 */
    m[0][1] <<= 1;   /* 2 << 5 */
  }
  m[1][0] -= 7;
  if (m[0][0] != 11 || m[1][1] != 64 || m[0][1] != 64 || m[1][0] != -6) fails++;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      g_total += m[i][j];
  for (int i = 0; i < 2; i++)
    free(m[i]);
  free(m);
  if (g_total != 133) fails++;
  unsigned int u = 1u;
  u -= 2; /* int operand converted: wraps */
  if (u != 4294967295u) fails++;
  char c = 10;
  c *= 12; /* 120 fits */
  if (c != 120) fails++;
  long l = 7;
  l *= x; /* long *= int */
  if (l != 1134) fails++;
  int d = 17;
  d /= 2.5; /* computed in double, truncated back: 6 */
  if (d != 6) fails++;
  if (fails) {
    printf("FAIL compound_assign_int %d\n", fails);
    return 1;
  }
  printf("ok compound_assign_int %d %ld %ld %d\n", x, g_total, l, d);
  return 0;
}
