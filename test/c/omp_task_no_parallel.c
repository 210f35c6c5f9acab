// Tasks created in main outside any parallel region (the implicit task of
// the initial thread): scalar results come back through shared(...), a
// dependence chain orders a writer and a reader of a scalar, blocks of an
// array are filled by independent tasks, and taskwait waits for all of them.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  int B = 125;
  int fails = 0;
  long first = 0;
  long second = 0;
  long chain = 0;
  long *a = (long *)malloc(n * sizeof(long));
  for (int i = 0; i < n; i++)
    a[i] = -1;
#pragma omp task shared(first)
  first = 42;
#pragma omp task shared(second)
  {
    long s = 0;
    for (int i = 1; i <= 100; i++)
      s += i;
    second = s;
  }
#pragma omp task shared(chain) depend(out: chain)
  chain = 7;
#pragma omp task shared(chain) depend(inout: chain)
  chain = chain * 6;
  for (int lo = 0; lo < n; lo += B) {
#pragma omp task
    {
      for (int i = lo; i < lo + B; i++)
        a[i] = (long)i * 2;
    }
  }
#pragma omp taskwait
  long total = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != (long)i * 2) fails++;
    total += a[i];
  }
  if (first != 42 || second != 5050 || chain != 42) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_task_no_parallel %d %ld %ld %ld\n", fails, first, second,
           chain);
    return 1;
  }
  printf("ok omp_task_no_parallel %ld %ld %ld %ld\n", first, second, chain,
         total);
  return 0;
}
