// 64-bit integer arithmetic: long and long long products beyond 32 bits, a
// 64-bit linear congruential generator, a modular exponentiation, and
// overflow-free 32-bit products done in 64 bits.
#include <stdio.h>

static long mulmod(long a, long b, long m) { return (a % m) * (b % m) % m; }

static long powmod(long base, long exp, long m) {
  long result = 1;
  base %= m;
  while (exp > 0) {
    if (exp & 1)
      result = mulmod(result, base, m);
    base = mulmod(base, base, m);
    exp >>= 1;
  }
  return result;
}

int main(void) {
  int fails = 0;
  long long f = 1;
  for (int i = 1; i <= 20; i++)
    f *= i;
  if (f != 2432902008176640000LL) fails++;
  unsigned long state = 1UL;
  for (int i = 0; i < 1000; i++)
    state = state * 6364136223846793005UL + 1442695040888963407UL;
  long p = powmod(2, 62, 1000000007L);
  long expected = 1;
  for (int i = 0; i < 62; i++)
    expected = expected * 2 % 1000000007L;
  if (p != expected) fails++;
  int a = 100000;
  int b = 300000;
  long ab = (long)a * b;
  if (ab != 30000000000L) fails++;
  long neg = -9000000000000000000L;
  if (neg / 1000000000L != -9000000000L) fails++;
  if (fails) {
    printf("FAIL long_arith %d\n", fails);
    return 1;
  }
  printf("ok long_arith %lld %lu %ld\n", f, state, p);
  return 0;
}
