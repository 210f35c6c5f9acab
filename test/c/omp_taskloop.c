// #pragma omp taskloop in a single region: grainsize, num_tasks, the default
// chunking, nogroup followed by taskwait, a decreasing loop and a loop
// variable declared outside.  Every iteration writes its own element; the
// arrays are compared with closed forms after each construct.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  int fails = 0;
  int scale = 3;
  long *a = (long *)malloc(n * sizeof(long));
  long *b = (long *)malloc(n * sizeof(long));
  long *c = (long *)malloc(n * sizeof(long));
  long *d = (long *)malloc(n * sizeof(long));
  int i;
#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp taskloop grainsize(64)
      for (int k = 0; k < n; k++)
        a[k] = (long)scale * k;
#pragma omp taskloop num_tasks(7) firstprivate(scale)
      for (int k = n - 1; k >= 0; k--)
        b[k] = a[k] + scale;
#pragma omp taskloop
      for (i = 0; i < n; i += 2)
        c[i] = b[i] * 2;
#pragma omp taskloop nogroup grainsize(100)
      for (int k = 1; k < n; k += 2)
        c[k] = -1;
#pragma omp taskwait
#pragma omp taskloop
      for (int k = 0; k < n; k++)
        d[k] = c[k] + 1;
    }
  }
  long s = 0;
  for (int k = 0; k < n; k++) {
    if (a[k] != 3L * k || b[k] != 3L * k + 3) fails++;
    if (k % 2 == 0 && c[k] != 2 * (3L * k + 3)) fails++;
    if (k % 2 == 1 && c[k] != -1) fails++;
    if (d[k] != c[k] + 1) fails++;
    s += d[k];
  }
  free(a);
  free(b);
  free(c);
  free(d);
  if (fails) {
    printf("FAIL omp_taskloop %d\n", fails);
    return 1;
  }
  printf("ok omp_taskloop %ld\n", s);
  return 0;
}
