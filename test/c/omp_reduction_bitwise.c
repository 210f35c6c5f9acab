// Bitwise reductions on a parallel for: reduction(& : m) and
// reduction(| : bits) on unsigned int, reduction(^ : x) on int and on
// unsigned int.  All three operators are associative and commutative, so
// the results equal those of a sequential loop, which is the reference.
#include <stdio.h>

int main(void) {
  int n = 40000;
  int fails = 0;
  unsigned int m = 0xFFFFFFFFu;
  unsigned int bits = 0u;
  int x = 0;
  unsigned int ux = 0u;
#pragma omp parallel for reduction(& : m) reduction(| : bits) reduction(^ : x, ux)
  for (int i = 0; i < n; i++) {
    unsigned int v = (unsigned int)i * 2654435761u;
    m &= v | 0x80000001u;
    bits |= 1u << (i % 29);
    x ^= i * 7 + 3;
    ux ^= v;
  }
  unsigned int em = 0xFFFFFFFFu, ebits = 0u, eux = 0u;
  int ex = 0;
  for (int i = 0; i < n; i++) {
    unsigned int v = (unsigned int)i * 2654435761u;
    em &= v | 0x80000001u;
    ebits |= 1u << (i % 29);
    ex ^= i * 7 + 3;
    eux ^= v;
  }
  if (m != em || bits != ebits || x != ex || ux != eux) fails++;
  if (bits != 0x1FFFFFFFu) fails++;
  if (fails) {
    printf("FAIL omp_reduction_bitwise %u %u %d %u\n", m, bits, x, ux);
    return 1;
  }
  printf("ok omp_reduction_bitwise %u %u %d %u\n", m, bits, x, ux);
  return 0;
}
