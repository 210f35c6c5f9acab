// A region whose every thread enters a taskgroup holding one single that creates tasks:
// the tasks are done when the taskgroup ends, written as stacked directives and as nested
// blocks.
#include <stdio.h>

#define N 40

int main(void) {
  int fails = 0;
  int count = 0, squares[N];
  for (int i = 0; i < N; i++)
    squares[i] = -1;
#pragma omp parallel
#pragma omp taskgroup
#pragma omp single
  for (int k = 0; k < N; k++) {
#pragma omp task shared(count)
    {
#pragma omp atomic
      count++;
    }
  }
#pragma omp parallel
  {
#pragma omp taskgroup
    {
#pragma omp single
      for (int k = 0; k < N; k++) {
#pragma omp task firstprivate(k) shared(squares)
        squares[k] = k * k;
      }
    }
  }
  if (count != N) fails++;
  for (int i = 0; i < N; i++)
    if (squares[i] != i * i) fails++;
  if (fails) {
    printf("FAIL omp_taskgroup_around_single %d %d\n", fails, count);
    return 1;
  }
  printf("ok omp_taskgroup_around_single %d %d\n", count, squares[N - 1]);
  return 0;
}
