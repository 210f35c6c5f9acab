// A #pragma omp parallel region containing several #pragma omp for loops:
// the implicit barrier at the end of each for makes the second loop see all
// the writes of the first; a variable declared inside the region is private.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 8000;
  int fails = 0;
  double *a = (double *)malloc(n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double));
  double *c = (double *)malloc(n * sizeof(double));
#pragma omp parallel
  {
    double scale = 2.0; /* private: declared inside the region */
#pragma omp for
    for (int i = 0; i < n; i++)
      a[i] = (double)i;
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      b[i] = scale * a[n - 1 - i]; /* reads elements written by other threads */
#pragma omp for reduction(+ : fails)
    for (int i = 0; i < n; i++) {
      c[i] = a[i] + b[i];
      if (c[i] != 2.0 * (double)(n - 1) - (double)i)
        fails++;
    }
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += c[i];
  free(a);
  free(b);
  free(c);
  if (fails) {
    printf("FAIL omp_parallel_region_for %d\n", fails);
    return 1;
  }
  printf("ok omp_parallel_region_for %.1f\n", s);
  return 0;
}
