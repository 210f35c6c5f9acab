// typedefs of scalar types (float, double, unsigned, long, char) and a
// typedef of a typedef; used for locals, parameters, returns and casts.
#include <stdio.h>

typedef float real;
typedef double real64;
typedef unsigned int u32;
typedef long i64;
typedef unsigned char byte;
typedef real scalar_t; /* typedef of a typedef */

static real64 widen(real x) { return (real64)x; }

static u32 rotl(u32 x, int r) { return (x << r) | (x >> (32 - r)); }

int main(void) {
  scalar_t s = 0.5f;
  real acc = 0.0f;
  for (int i = 0; i < 8; i++)
    acc += s;
  real64 w = widen(acc);
  u32 h = rotl(0x80000001u, 4);
  i64 big = (i64)1 << 40;
  byte b = (byte)260; /* wraps to 4 */
  if (w != 4.0 || h != 0x18u || big != 1099511627776L || b != 4 ||
      sizeof(real) != 4 || sizeof(real64) != 8 || sizeof(byte) != 1) {
    printf("FAIL typedef_scalar %f %u %ld %d\n", w, h, big, (int)b);
    return 1;
  }
  printf("ok typedef_scalar %.1f %u %ld %d\n", w, h, big, (int)b);
  return 0;
}
