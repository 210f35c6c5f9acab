// #pragma omp sections inside a #pragma omp parallel region with three
// #pragma omp section blocks, each filling a different array with its own
// formula.  The implicit barrier at the end of sections makes all three
// complete before the region ends; each array is compared with its
// closed form, and each section counts its runs (exactly one each).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 5000;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  long *b = (long *)malloc(n * sizeof(long));
  double *c = (double *)malloc(n * sizeof(double));
  int runs_a = 0, runs_b = 0, runs_c = 0;
#pragma omp parallel
  {
#pragma omp sections
    {
#pragma omp section
      {
        for (int i = 0; i < n; i++)
          a[i] = 2 * i + 1;
        runs_a++;
      }
#pragma omp section
      {
        for (int i = 0; i < n; i++)
          b[i] = (long)i * i;
        runs_b++;
      }
#pragma omp section
      {
        for (int i = 0; i < n; i++)
          c[i] = 0.5 * i;
        runs_c++;
      }
    }
  }
  long sa = 0, sb = 0;
  double sc = 0.0;
  for (int i = 0; i < n; i++) {
    if (a[i] != 2 * i + 1 || b[i] != (long)i * i || c[i] != 0.5 * i) fails++;
    sa += a[i];
    sb += b[i];
    sc += c[i];
  }
  if (runs_a != 1 || runs_b != 1 || runs_c != 1) fails++;
  free(a);
  free(b);
  free(c);
  if (fails) {
    printf("FAIL omp_sections %d\n", fails);
    return 1;
  }
  printf("ok omp_sections %ld %ld %.1f\n", sa, sb, sc);
  return 0;
}
