// #pragma omp for nowait on independent loops inside one parallel region:
// no barrier is needed between them because they touch different arrays;
// the region's closing barrier makes everything visible afterwards.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 9000;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  int *b = (int *)malloc(n * sizeof(int));
  float *c = (float *)malloc(n * sizeof(float));
#pragma omp parallel shared(a, b, c, n)
  {
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      a[i] = i * 2;
#pragma omp for schedule(dynamic, 32) nowait
    for (int i = 0; i < n; i++)
      b[i] = n - i;
#pragma omp for nowait
    for (int i = 0; i < n; i++)
      c[i] = 0.5f * (float)i;
  }
  long s = 0;
  double cs = 0.0;
  for (int i = 0; i < n; i++) {
    if (a[i] + 2 * b[i] != 2 * n)
      fails++;
    s += a[i] + b[i];
    cs += c[i];
  }
  free(a);
  free(b);
  free(c);
  if (fails) {
    printf("FAIL omp_for_nowait %d\n", fails);
    return 1;
  }
  printf("ok omp_for_nowait %ld %.1f\n", s, cs);
  return 0;
}
