/* Tasks created by every thread of a team (no single): each thread creates its own
   tasks, waits for them with taskwait, and adds what they found in a critical section;
   a region's reduction(task, ...) joined by the task each thread creates. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define T 4
#define PER 5

int main(void) {
  int cell[T * PER];
  for (int i = 0; i < T * PER; i++)
    cell[i] = -1;
  long total = 0;
  int team = 0, joined = 0;
#pragma omp parallel num_threads(T) shared(cell, total, team)
  {
    int me = omp_get_thread_num();
    for (int k = 0; k < PER; k++) {
#pragma omp task firstprivate(me, k) shared(cell)
      cell[me * PER + k] = me * 100 + k;
    }
#pragma omp taskwait
    long mine = 0;
    for (int k = 0; k < PER; k++)
      mine += cell[me * PER + k];
#pragma omp critical
    {
      total += mine;
      team = omp_get_num_threads();
    }
  }
  long red = 0;
#pragma omp parallel num_threads(T) reduction(task, +: red)
  {
#pragma omp task in_reduction(+: red)
    red += 5;
    red += 1;
#pragma omp atomic
    joined++;
  }
  long expect = 0;
  for (int t = 0; t < team; t++)
    for (int k = 0; k < PER; k++)
      expect += t * 100 + k;
  int ok = team >= 1 && total == expect && red == 6L * joined && joined == team;
  if (!ok) {
    printf("FAIL omp_task_every_thread %d %ld %ld %ld %d\n", team, total, expect, red, joined);
    return 1;
  }
  printf("ok omp_task_every_thread\n");
  return 0;
}
