// Running prefix sum computed in an #pragma omp ordered block of a
// parallel for ordered loop: acc += a[i]; pre[i] = acc; runs in iteration
// order, so pre[] is the inclusive prefix sum.  a[i] = 2 i + 1 is computed
// in parallel outside the ordered block; the prefix sums are the squares,
// pre[i] = (i + 1)^2 (closed form).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 5000;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  long *pre = (long *)malloc(n * sizeof(long));
  long acc = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++) {
    a[i] = 2L * i + 1;
#pragma omp ordered
    {
      acc += a[i];
      pre[i] = acc;
    }
  }
  for (int i = 0; i < n; i++)
    if (pre[i] != (long)(i + 1) * (i + 1)) fails++;
  if (acc != (long)n * n) fails++;
  long mid = pre[n / 2];
  free(a);
  free(pre);
  if (fails) {
    printf("FAIL omp_ordered_prefix %d %ld\n", fails, acc);
    return 1;
  }
  printf("ok omp_ordered_prefix %ld %ld\n", acc, mid);
  return 0;
}
