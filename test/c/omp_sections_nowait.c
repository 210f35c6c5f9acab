// #pragma omp sections nowait followed by an explicit #pragma omp barrier
// and an #pragma omp for that reads what the sections wrote: the first
// section fills the first half of a, the second the second half, and the
// loop computes b[i] = a[i] + a[n - 1 - i], which mixes both halves and is
// only right because of the barrier.  b[i] is n for every i.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 10000;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  int *b = (int *)malloc(n * sizeof(int));
#pragma omp parallel
  {
#pragma omp sections nowait
    {
#pragma omp section
      {
        for (int i = 0; i < n / 2; i++)
          a[i] = i + 1;
      }
#pragma omp section
      {
        for (int i = n / 2; i < n; i++)
          a[i] = i;
      }
    }
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = a[i] + a[n - 1 - i];
  }
  /* i < n/2: (i + 1) + (n - 1 - i) = n; i >= n/2: i + (n - i) = n */
  long s = 0;
  for (int i = 0; i < n; i++) {
    if (b[i] != n) fails++;
    s += b[i];
  }
  free(a);
  free(b);
  if (fails) {
    printf("FAIL omp_sections_nowait %d\n", fails);
    return 1;
  }
  printf("ok omp_sections_nowait %ld\n", s);
  return 0;
}
