// Explicit firstprivate on tasks for variables declared before the parallel
// region (shared there by default): an int, a double and a long are changed
// by the creating thread after each task is created, and every task must
// see the value from its creation, not the one the variable has when the
// task runs.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 32;
  int fails = 0;
  int step = 5;
  double scale = 0.5;
  long base = 1000;
  long *out = (long *)malloc(n * sizeof(long));
  double *dout = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) {
    out[i] = -1;
    dout[i] = -1.0;
  }
#pragma omp parallel
  {
#pragma omp single
    {
      for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(step, scale, base)
        {
          out[i] = base + step;
          dout[i] = scale * (double)step;
        }
        step = step + 1;
        scale = scale * 2.0;
        base = base + 10;
      }
#pragma omp taskwait
    }
  }
  long total = 0;
  double dtotal = 0.0;
  for (int i = 0; i < n; i++) {
    long b = 1000 + 10L * i;
    int st = 5 + i;
    double sc = 0.5;
    for (int k = 0; k < i; k++)
      sc = sc * 2.0;
    if (out[i] != b + st) fails++;
    if (dout[i] != sc * (double)st) fails++;
    total += out[i];
    dtotal += dout[i];
  }
  if (step != 5 + n || base != 1000 + 10L * n) fails++;
  free(out);
  free(dout);
  if (fails) {
    printf("FAIL omp_task_firstprivate %d\n", fails);
    return 1;
  }
  printf("ok omp_task_firstprivate %ld %.1f\n", total, dtotal);
  return 0;
}
