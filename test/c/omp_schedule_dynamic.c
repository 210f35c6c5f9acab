// schedule(dynamic) and schedule(dynamic, chunk) on iterations with very
// different amounts of work; the results do not depend on which thread ran
// which iteration.
#include <stdio.h>
#include <stdlib.h>

static long work(int i) {
  long s = 0;
  for (int k = 0; k < (i % 97) * 20; k++)
    s += (k ^ i) % 13;
  return s;
}

int main(void) {
  int n = 4000;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  long *b = (long *)malloc(n * sizeof(long));
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < n; i++)
    a[i] = work(i);
#pragma omp parallel for schedule(dynamic, 16)
  for (int i = 0; i < n; i++)
    b[i] = work(n - 1 - i);
  long sa = 0;
  long sb = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != work(i))
      fails++;
    sa += a[i];
    sb += b[i];
  }
  if (sa != sb) fails++;
  free(a);
  free(b);
  if (fails) {
    printf("FAIL omp_schedule_dynamic %d\n", fails);
    return 1;
  }
  printf("ok omp_schedule_dynamic %ld\n", sa);
  return 0;
}
