// Tasks and worksharing loops in separate parallel regions of one program:
// a first region fills an array with tasks (one per block, depend on each
// block's first element to order a fill task before a scale task), a second
// region runs a parallel for with a sum reduction over it, and a third
// region creates tasks again that read the array and the reduced value.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 6000;
  int B = 500;
  int nb = 12;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  long *b = (long *)malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) {
    a[i] = -1;
    b[i] = -1;
  }
#pragma omp parallel
  {
#pragma omp single
    {
      for (int k = 0; k < nb; k++) {
#pragma omp task depend(out: a[k * B])
        {
          for (int i = k * B; i < k * B + B; i++)
            a[i] = i % 50;
        }
#pragma omp task depend(inout: a[k * B])
        {
          for (int i = k * B; i < k * B + B; i++)
            a[i] = a[i] * 2 + 1;
        }
      }
    }
  }
  long total = 0;
#pragma omp parallel for reduction(+: total)
  for (int i = 0; i < n; i++)
    total += a[i];
#pragma omp parallel
  {
#pragma omp single
    {
      for (int k = 0; k < nb; k++) {
#pragma omp task
        {
          for (int i = k * B; i < k * B + B; i++)
            b[i] = total - a[i];
        }
      }
    }
  }
  long expect = 0;
  for (int i = 0; i < n; i++)
    expect += (i % 50) * 2 + 1;
  long bsum = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != (i % 50) * 2 + 1) fails++;
    if (b[i] != expect - a[i]) fails++;
    bsum += b[i];
  }
  if (total != expect) fails++;
  free(a);
  free(b);
  if (fails) {
    printf("FAIL omp_task_then_parallel_for %d %ld %ld\n", fails, total, expect);
    return 1;
  }
  printf("ok omp_task_then_parallel_for %ld %ld\n", total, bsum);
  return 0;
}
