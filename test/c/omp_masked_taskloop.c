// The masked taskloop forms: `masked taskloop filter(n)` (thread n alone creates the tasks
// of the loop), `masked taskloop` and `masked taskloop simd` (thread 0), one after the other
// in a region with nothing else, and the combined `parallel masked taskloop [simd]` with a
// filter. Every iteration runs once, whichever thread created its task.
#include <stdio.h>

#define N 1000

int main(void) {
  int a[N], b[N], c[N], d[N], e[N];
  for (int i = 0; i < N; i++) {
    a[i] = 0;
    b[i] = 0;
    c[i] = 0;
    d[i] = 0;
    e[i] = 0;
  }
#pragma omp parallel num_threads(4)
  {
#pragma omp masked taskloop filter(1)
    for (int i = 0; i < N; i++)
      a[i] += i;
#pragma omp masked taskloop
    for (int i = 0; i < N; i++)
      b[i] += 2 * i;
#pragma omp masked taskloop simd filter(0)
    for (int i = 0; i < N; i++)
      c[i] += 3 * i;
  }
#pragma omp parallel masked taskloop num_threads(3) filter(2) grainsize(64)
  for (int i = 0; i < N; i++)
    d[i] += i + 1;
#pragma omp parallel masked taskloop simd filter(1) num_threads(2)
  for (int i = 0; i < N; i++)
    e[i] += i - 1;
  long sum = 0;
  int bad = 0;
  for (int i = 0; i < N; i++) {
    bad += a[i] != i || b[i] != 2 * i || c[i] != 3 * i || d[i] != i + 1 || e[i] != i - 1;
    sum += a[i] + b[i] + c[i] + d[i] + e[i];
  }
  if (bad) {
    printf("FAIL omp_masked_taskloop %d wrong elements, sum %ld\n", bad, sum);
    return 1;
  }
  printf("ok omp_masked_taskloop sum=%ld\n", sum);
  return 0;
}
