// private(...) on tasks for a fixed-size local array declared before the
// parallel region: every task fills its own scratch copy before reading it
// (a small histogram and a prefix sum), so concurrent tasks do not see
// each other's scratch values.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 30;
  int fails = 0;
  long scratch[10];
  long *out = (long *)malloc(n * sizeof(long));
  long *top = (long *)malloc(n * sizeof(long));
  for (int k = 0; k < n; k++) {
    out[k] = -1;
    top[k] = -1;
  }
#pragma omp parallel
  {
#pragma omp single
    {
      for (int k = 0; k < n; k++) {
#pragma omp task private(scratch)
        {
          for (int j = 0; j < 10; j++)
            scratch[j] = 0;
          for (int i = 0; i < 100 + k; i++)
            scratch[(i * (k + 3)) % 10] += 1;
          for (int j = 1; j < 10; j++)
            scratch[j] += scratch[j - 1];
          out[k] = scratch[4] * 1000 + scratch[9];
          top[k] = scratch[9];
        }
      }
#pragma omp taskwait
    }
  }
  long total = 0;
  for (int k = 0; k < n; k++) {
    long h[10];
    for (int j = 0; j < 10; j++)
      h[j] = 0;
    for (int i = 0; i < 100 + k; i++)
      h[(i * (k + 3)) % 10] += 1;
    long below5 = 0;
    for (int j = 0; j < 5; j++)
      below5 += h[j];
    if (out[k] != below5 * 1000 + 100 + k) fails++;
    if (top[k] != 100 + k) fails++;
    total += out[k];
  }
  free(out);
  free(top);
  if (fails) {
    printf("FAIL omp_task_private_array %d\n", fails);
    return 1;
  }
  printf("ok omp_task_private_array %ld\n", total);
  return 0;
}
