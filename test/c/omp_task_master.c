// Tasks created inside #pragma omp master (instead of single): the master
// thread creates one task per block with no taskwait; the other threads of
// the team pick tasks up, and the end of the parallel region waits for all
// of them.  A second region does the same with a depend chain between
// tasks that update a shared scalar.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 3000;
  int B = 200;
  int fails = 0;
  int creators = 0;
  long acc = 0;
  int *a = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    a[i] = -1;
#pragma omp parallel
  {
#pragma omp master
    {
      creators++;
      for (int lo = 0; lo < n; lo += B) {
#pragma omp task
        {
          for (int i = lo; i < lo + B; i++)
            a[i] = (i * 7) % 100;
        }
      }
    }
  }
#pragma omp parallel
  {
#pragma omp master
    {
      creators++;
      for (int lo = 0; lo < n; lo += B) {
#pragma omp task depend(inout: acc)
        {
          long s = 0;
          for (int i = lo; i < lo + B; i++)
            s += a[i];
          acc = acc * 3 % 1000003 + s;
        }
      }
    }
  }
  long expect = 0;
  long total = 0;
  for (int lo = 0; lo < n; lo += B) {
    long s = 0;
    for (int i = lo; i < lo + B; i++) {
      if (a[i] != (i * 7) % 100) fails++;
      s += (i * 7) % 100;
    }
    expect = expect * 3 % 1000003 + s;
    total += s;
  }
  if (acc != expect || creators != 2) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_task_master %d %ld %ld\n", fails, acc, expect);
    return 1;
  }
  printf("ok omp_task_master %d %ld %ld\n", creators, total, acc);
  return 0;
}
