// An ordered loop whose ordered block uses locals computed before it (v, a
// variable updated in a loop, and w, read from an array), and the loop
// variable: the ordered parts must see each
// iteration's own v, in iteration order.  The running checksum mixes the
// order in (h = h * 31 + v), so any reordering or a value from another
// iteration changes it; the expected value is computed sequentially.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 3000;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  for (int i = 0; i < n; i++)
    a[i] = (i * 7919) % 101;
  long h = 7;
  int last = -1;
  int out_of_order = 0;
#pragma omp parallel for ordered schedule(dynamic, 7)
  for (int i = 0; i < n; i++) {
    long v = 0;
    for (int j = 0; j <= i % 5; j++)
      v += ((long)i * j) % 1009;
    long w = a[i] * 3;
#pragma omp ordered
    {
      if (i != last + 1) out_of_order++;
      last = i;
      h = (h * 31 + v + w) % 1000003;
    }
  }
  long e = 7;
  for (int i = 0; i < n; i++) {
    long v = 0;
    for (int j = 0; j <= i % 5; j++)
      v += ((long)i * j) % 1009;
    e = (e * 31 + v + a[i] * 3) % 1000003;
  }
  free(a);
  if (h != e) fails++;
  if (out_of_order != 0 || last != n - 1) fails++;
  if (fails) {
    printf("FAIL omp_ordered_local %ld %ld %d %d\n", h, e, out_of_order, last);
    return 1;
  }
  printf("ok omp_ordered_local %ld\n", h);
  return 0;
}
