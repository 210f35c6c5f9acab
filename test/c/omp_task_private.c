// private(...) on tasks: scalars declared before the parallel region (shared
// by default) are used as per-task scratch.  Each task sets its private
// copies before reading them, so concurrent tasks do not interfere (the
// originals are not checked: a sequential build writes them).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 48;
  int fails = 0;
  long acc = 77;
  int idx = -3;
  double tmp = 2.5;
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
      for (int k = 0; k < n; k++) {
#pragma omp task private(acc, idx, tmp)
        {
          acc = 0;
          for (idx = 0; idx <= k; idx++)
            acc += (long)idx * idx;
          tmp = 0.25 * (double)k;
          out[k] = acc;
          dout[k] = tmp + 1.0;
        }
      }
#pragma omp taskwait
    }
  }
  long total = 0;
  double dtotal = 0.0;
  for (int k = 0; k < n; k++) {
    long expect = (long)k * (k + 1) * (2 * k + 1) / 6;
    if (out[k] != expect) fails++;
    if (dout[k] != 0.25 * (double)k + 1.0) fails++;
    total += out[k];
    dtotal += dout[k];
  }
  free(out);
  free(dout);
  if (fails) {
    printf("FAIL omp_task_private %d\n", fails);
    return 1;
  }
  printf("ok omp_task_private %ld %.2f\n", total, dtotal);
  return 0;
}
