// Unsigned arithmetic modulo 2^n: wrap-around on +, -, *; FNV-1a hashing of a
// sequence (32 and 64 bit) compared with values computed by hand elsewhere;
// unsigned loop counting down past zero safely.
#include <stdio.h>

static unsigned int fnv1a32(int n) {
  unsigned int h = 2166136261u;
  for (int i = 0; i < n; i++) {
    h ^= (unsigned int)(i & 0xff);
    h *= 16777619u;
  }
  return h;
}

static unsigned long fnv1a64(int n) {
  unsigned long h = 14695981039346656037UL;
  for (int i = 0; i < n; i++) {
    h ^= (unsigned long)(i & 0xff);
    h *= 1099511628211UL;
  }
  return h;
}

int main(void) {
  int fails = 0;
  unsigned int zero = 0u;
  unsigned int max = zero - 1u;
  if (max != 4294967295u) fails++;
  if (max + 1u != 0u) fails++;
  unsigned int big = 65536u * 65536u; /* wraps to 0 */
  if (big != 0u) fails++;
  unsigned int m = 3000000000u;
  unsigned int sum = m + m; /* 6e9 mod 2^32 */
  if (sum != 1705032704u) fails++;
  unsigned short us = 65535;
  us++;
  if (us != 0) fails++;
  /* counting down with an unsigned index */
  unsigned int count = 0;
  for (unsigned int k = 10; k > 0; k--)
    count += k;
  if (count != 55u) fails++;
  if (fnv1a32(0) != 2166136261u) fails++;
  if (fnv1a32(1) != 84696351u) fails++;   /* 0x050c5d1f */
  if (fnv1a64(1) != 12638153115695167455UL) fails++; /* 0xaf63bd4c8601b7df */
  unsigned int h = fnv1a32(256);
  unsigned long h64 = fnv1a64(256);
  if (fails) {
    printf("FAIL unsigned_wrap %d\n", fails);
    return 1;
  }
  printf("ok unsigned_wrap %u %lu\n", h, h64);
  return 0;
}
