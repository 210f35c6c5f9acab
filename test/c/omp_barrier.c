// #pragma omp barrier between a nowait loop and a loop that reads the first
// loop's results in reverse order: correct only because of the barrier.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 12000;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  long *b = (long *)malloc(n * sizeof(long));
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      a[i] = (long)i * 3 + 1;
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++)
      b[i] = a[n - 1 - i] + a[i];
  }
  for (int i = 0; i < n; i++)
    if (b[i] != 3L * (n - 1) + 2)
      fails++;
  long s = 0;
  for (int i = 0; i < n; i++)
    s += b[i];
  free(a);
  free(b);
  if (fails) {
    printf("FAIL omp_barrier %d\n", fails);
    return 1;
  }
  printf("ok omp_barrier %ld\n", s);
  return 0;
}
