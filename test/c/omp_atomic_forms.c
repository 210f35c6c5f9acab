// The update forms of #pragma omp atomic, each on its own int or long
// scalar inside one parallel for: x++, ++x, x--, x -= v, x |= bit,
// x ^= v, x = x + v, x = v + x.  All are commutative updates, so the
// final values equal those of a sequential loop computing the same thing.
#include <stdio.h>

int main(void) {
  int n = 20000;
  int fails = 0;
  int a = 0, b = 0, c = 0, d = 1000000;
  long e = 0, f = 0, g = 0, h = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int v = i % 13;
#pragma omp atomic
    a++;
#pragma omp atomic
    ++b;
#pragma omp atomic
    c--;
#pragma omp atomic
    d -= v;
#pragma omp atomic
    e |= 1L << (i % 40);
#pragma omp atomic
    f ^= (long)i * 7;
#pragma omp atomic
    g = g + v;
#pragma omp atomic
    h = 2L * v + h;
  }
  int a2 = 0, b2 = 0, c2 = 0, d2 = 1000000;
  long e2 = 0, f2 = 0, g2 = 0, h2 = 0;
  for (int i = 0; i < n; i++) {
    int v = i % 13;
    a2 += 1;
    b2 += 1;
    c2 -= 1;
    d2 -= v;
    e2 |= 1L << (i % 40);
    f2 ^= (long)i * 7;
    g2 += v;
    h2 += 2L * v;
  }
  if (a != a2 || b != b2 || c != c2 || d != d2) fails++;
  if (e != e2 || f != f2 || g != g2 || h != h2) fails++;
  if (fails) {
    printf("FAIL omp_atomic_forms %d %d %d %d %ld %ld %ld %ld\n", a, b, c, d, e,
           f, g, h);
    return 1;
  }
  printf("ok omp_atomic_forms %d %d %d %d %ld %ld %ld %ld\n", a, b, c, d, e, f,
         g, h);
  return 0;
}
