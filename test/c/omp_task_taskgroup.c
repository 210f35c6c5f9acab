// #pragma omp taskgroup waits for a batch of tasks: a first group of tasks
// fills the blocks of a, a second group (created after the first group
// ended, without any depend clause) reads neighbouring blocks of a into b,
// and a third group writes one partial sum per block.  A task created
// after each group checks that every element of the group's output is set.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int B = 100;
  int nb = 20;
  int n = B * nb;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  int *b = (int *)malloc(n * sizeof(int));
  long *part = (long *)malloc(nb * sizeof(long));
  int *checks = (int *)malloc(2 * sizeof(int));
  for (int i = 0; i < n; i++) {
    a[i] = -1;
    b[i] = -1;
  }
  checks[0] = -1;
  checks[1] = -1;
#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp taskgroup
      {
        for (int k = 0; k < nb; k++) {
#pragma omp task
          for (int i = k * B; i < k * B + B; i++)
            a[i] = i % 37;
        }
      }
#pragma omp task
      {
        int bad = 0;
        for (int i = 0; i < n; i++)
          if (a[i] < 0)
            bad++;
        checks[0] = bad;
      }
#pragma omp taskgroup
      {
        for (int k = 0; k < nb; k++) {
#pragma omp task
          {
            for (int i = k * B; i < k * B + B; i++) {
              int prev = (i > 0) ? a[i - 1] : 0;
              int next = (i + 1 < n) ? a[i + 1] : 0;
              b[i] = prev + a[i] + next;
            }
          }
        }
      }
#pragma omp task
      {
        int bad = 0;
        for (int i = 0; i < n; i++)
          if (b[i] < 0)
            bad++;
        checks[1] = bad;
      }
#pragma omp taskgroup
      {
        for (int k = 0; k < nb; k++) {
#pragma omp task
          {
            long s = 0;
            for (int i = k * B; i < k * B + B; i++)
              s += b[i];
            part[k] = s;
          }
        }
      }
    }
  }
  long total = 0;
  for (int k = 0; k < nb; k++)
    total += part[k];
  long expect = 0;
  for (int i = 0; i < n; i++) {
    long prev = (i > 0) ? (i - 1) % 37 : 0;
    long next = (i + 1 < n) ? (i + 1) % 37 : 0;
    expect += prev + i % 37 + next;
  }
  if (total != expect) fails++;
  if (checks[0] != 0 || checks[1] != 0) fails++;
  free(a);
  free(b);
  free(part);
  free(checks);
  if (fails) {
    printf("FAIL omp_task_taskgroup %d %ld %ld\n", fails, total, expect);
    return 1;
  }
  printf("ok omp_task_taskgroup %ld\n", total);
  return 0;
}
