// The same variable in firstprivate and lastprivate on a parallel for:
// every thread's copy of x starts at the value before the loop (100);
// iterations read it (b[i] = x + i, wrong if the copy were not
// initialized) and only the last iteration changes it, x = 2 x + 1, so
// after the loop x must be 201 whichever thread ran that iteration.  A
// double d gets the same treatment.  Expected values are closed forms.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 8000;
  int fails = 0;
  int x = 100;
  double d = 1.5;
  int *b = (int *)malloc(n * sizeof(int));
  double *c = (double *)malloc(n * sizeof(double));
#pragma omp parallel for firstprivate(x, d) lastprivate(x, d)
  for (int i = 0; i < n; i++) {
    b[i] = x + i;
    c[i] = d * i;
    if (i == n - 1) {
      x = 2 * x + 1;
      d = d + 0.25;
    }
  }
  for (int i = 0; i < n; i++) {
    if (b[i] != 100 + i) fails++;
    if (c[i] != 1.5 * i) fails++;
  }
  if (x != 201) fails++;
  if (d != 1.75) fails++;
  free(b);
  free(c);
  if (fails) {
    printf("FAIL omp_lastprivate_firstprivate %d %d %f\n", fails, x, d);
    return 1;
  }
  printf("ok omp_lastprivate_firstprivate %d %.2f\n", x, d);
  return 0;
}
