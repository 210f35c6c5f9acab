// if(...) clause on #pragma omp parallel for: with n = 100 the condition
// n > 1000 is false and the loop runs on one thread, with n = 100000 it is
// true.  Both give the same results (each iteration writes its own
// element, then a reduction), compared with closed forms.
#include <stdio.h>
#include <stdlib.h>

static long run(int n, long *a) {
  long s = 0;
#pragma omp parallel for if(n > 1000) reduction(+ : s)
  for (int i = 0; i < n; i++) {
    a[i] = 3L * i - 1;
    s += a[i];
  }
  return s;
}

int main(void) {
  int fails = 0;
  int big = 100000;
  long *a = (long *)malloc(big * sizeof(long));
  int sizes[2];
  sizes[0] = 100;
  sizes[1] = big;
  long sums[2];
  for (int k = 0; k < 2; k++) {
    int n = sizes[k];
    sums[k] = run(n, a);
    for (int i = 0; i < n; i++)
      if (a[i] != 3L * i - 1) fails++;
    /* 3 n (n - 1) / 2 - n */
    if (sums[k] != 3L * n * (n - 1) / 2 - n) fails++;
  }
  int m = 50;
  int c = 0;
#pragma omp parallel for if(0) reduction(+ : c)
  for (int i = 0; i < m; i++)
    c += i;
  if (c != m * (m - 1) / 2) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_parallel_if %d %ld %ld %d\n", fails, sums[0], sums[1], c);
    return 1;
  }
  printf("ok omp_parallel_if %ld %ld %d\n", sums[0], sums[1], c);
  return 0;
}
