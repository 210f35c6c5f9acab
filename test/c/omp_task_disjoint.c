// Tasks without depend clauses that write disjoint parts of one array:
// task k writes the elements i with i % nt == k (interleaved, not blocks),
// and a taskwait separates them from a second batch in which task k reads
// a contiguous block, which spans elements written by every first-batch
// task, and stores one partial sum per task.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4096;
  int nt = 16;
  int B = n / nt;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  long *part = (long *)malloc(nt * sizeof(long));
  for (int i = 0; i < n; i++)
    a[i] = -1;
  for (int k = 0; k < nt; k++)
    part[k] = -1;
#pragma omp parallel
  {
#pragma omp single
    {
      for (int k = 0; k < nt; k++) {
#pragma omp task
        {
          for (int i = k; i < n; i += nt)
            a[i] = (i % 13) * (k + 1);
        }
      }
#pragma omp taskwait
      for (int k = 0; k < nt; k++) {
#pragma omp task
        {
          long s = 0;
          for (int i = k * B; i < k * B + B; i++)
            s += a[i];
          part[k] = s;
        }
      }
#pragma omp taskwait
    }
  }
  long total = 0;
  long expect = 0;
  for (int i = 0; i < n; i++) {
    int v = (i % 13) * (i % nt + 1);
    if (a[i] != v) fails++;
    expect += v;
  }
  for (int k = 0; k < nt; k++)
    total += part[k];
  if (total != expect) fails++;
  free(a);
  free(part);
  if (fails) {
    printf("FAIL omp_task_disjoint %d %ld %ld\n", fails, total, expect);
    return 1;
  }
  printf("ok omp_task_disjoint %ld\n", total);
  return 0;
}
