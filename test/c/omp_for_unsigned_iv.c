// #pragma omp parallel for with induction variables that are not int: an
// unsigned int loop (0u .. n - 1), an unsigned loop starting above 2^31
// (trip count computed in unsigned arithmetic), and a long loop whose
// values exceed 2^31 before the offset is removed.  Each iteration writes
// its own element; compared with closed forms.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 12000;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  long *b = (long *)malloc(n * sizeof(long));
  long *c = (long *)malloc(n * sizeof(long));
  unsigned int un = (unsigned int)n;
  unsigned int base = 3000000000u;
  long lbase = 5000000000L;
#pragma omp parallel for
  for (unsigned int u = 0u; u < un; u++)
    a[u] = (long)u * 2;
#pragma omp parallel for
  for (unsigned int u = base; u < base + un; u++)
    b[u - base] = (long)(u % 1000u);
#pragma omp parallel for
  for (long l = lbase; l < lbase + n; l++)
    c[l - lbase] = l - 4999999000L;
  long sa = 0, sb = 0, sc = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != 2L * i) fails++;
    if (b[i] != (long)((base + (unsigned int)i) % 1000u)) fails++;
    if (c[i] != 1000L + i) fails++;
    sa += a[i];
    sb += b[i];
    sc += c[i];
  }
  free(a);
  free(b);
  free(c);
  if (fails) {
    printf("FAIL omp_for_unsigned_iv %d\n", fails);
    return 1;
  }
  printf("ok omp_for_unsigned_iv %ld %ld %ld\n", sa, sb, sc);
  return 0;
}
