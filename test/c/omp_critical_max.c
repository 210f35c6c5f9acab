// Manual max reduction: in a #pragma omp parallel region each thread keeps
// a private local max over its share of an #pragma omp for loop, then
// merges it under #pragma omp critical { if (local > gmax) gmax = local; }.
// Also the position of the maximum (values are distinct, so it is unique).
// Expected from a sequential scan.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 30000;
  int fails = 0;
  double *a = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = (double)((i * 7919) % n) - 0.5 * (double)(i % 2); /* distinct */
  double gmax = -1.0e30;
  int gpos = -1;
#pragma omp parallel
  {
    double local = -1.0e30;
    int lpos = -1;
#pragma omp for
    for (int i = 0; i < n; i++) {
      if (a[i] > local) {
        local = a[i];
        lpos = i;
      }
    }
#pragma omp critical
    {
      if (local > gmax) {
        gmax = local;
        gpos = lpos;
      }
    }
  }
  double emax = a[0];
  int epos = 0;
  for (int i = 1; i < n; i++)
    if (a[i] > emax) {
      emax = a[i];
      epos = i;
    }
  if (gmax != emax || gpos != epos) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_critical_max %f %f %d %d\n", gmax, emax, gpos, epos);
    return 1;
  }
  printf("ok omp_critical_max %.1f %d\n", gmax, gpos);
  return 0;
}
