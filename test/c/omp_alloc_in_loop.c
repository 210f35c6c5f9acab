// An array allocated and freed once per step of a time loop, and in a helper called twice,
// each filled by a parallel loop and summed by the host: every run of the allocation gets
// storage of its own, on several nodes as on one.
#include <stdio.h>
#include <stdlib.h>

static long fill_and_sum(int n, int shift) {
  long *a = (long *)malloc(n * sizeof(long));
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = i + shift;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  free(a);
  return s;
}

int main(void) {
  int n = 4096;
  long total = 0, expected = 0;
  for (int t = 0; t < 3; t++) {
    long *a = (long *)malloc(n * sizeof(long));
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      a[i] = 2 * i + t;
    for (int i = 0; i < n; i++)
      total += a[i];
    free(a);
    expected += (long)n * (n - 1) + (long)n * t;
  }
  long h1 = fill_and_sum(n, 1), h2 = fill_and_sum(n, 5);
  long e1 = (long)n * (n - 1) / 2 + n, e2 = (long)n * (n - 1) / 2 + 5L * n;
  if (total != expected || h1 != e1 || h2 != e2) {
    printf("FAIL omp_alloc_in_loop %ld %ld %ld %ld %ld %ld\n", total, expected, h1, e1, h2, e2);
    return 1;
  }
  printf("ok omp_alloc_in_loop %ld %ld %ld\n", total, h1, h2);
  return 0;
}
