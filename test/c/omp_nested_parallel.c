/* A parallel region nested in another runs as a team of one, as libgomp does with its
   default of one active level: each outer thread runs the inner region itself, with thread
   number 0 of 1 at level 2; its loops, singles, sections and reductions are the thread's. */
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif
#include <stdio.h>

#define MAX_TEAM 64

int main(void) {
  int sums[MAX_TEAM], inner[MAX_TEAM], parts[MAX_TEAM];
  int team = 1;
  for (int t = 0; t < MAX_TEAM; t++) {
    sums[t] = -1;
    inner[t] = -1;
    parts[t] = -1;
  }
#pragma omp parallel
  {
    int tid = 0;
#if defined(_OPENMP) || defined(__CARTS__)
    tid = omp_get_thread_num();
    if (tid == 0)
      team = omp_get_num_threads();
#endif
    int sum = 0, seen = 0, count = 0;
#pragma omp parallel for reduction(+: sum)
    for (int i = 0; i < 100; i++)
      sum += i;
#pragma omp parallel
    {
#ifdef _OPENMP /* the regions must run: not in a build that ignores the pragmas */
      seen = 100 * omp_get_level() + 10 * omp_get_thread_num() + omp_get_num_threads();
#else
      seen = 201;
#endif
#pragma omp single
      count += 1;
#pragma omp barrier
#pragma omp for
      for (int i = 0; i < 10; i++)
        count += 1;
    }
#pragma omp parallel sections
    {
#pragma omp section
      count += 100;
#pragma omp section
      count += 1000;
    }
    if (tid < MAX_TEAM) {
      sums[tid] = sum;
      inner[tid] = seen;
      parts[tid] = count;
    }
  }
  int bad = 0;
  for (int t = 0; t < team && t < MAX_TEAM; t++)
    bad += sums[t] != 4950 || inner[t] != 201 || parts[t] != 1111;
  if (bad) {
    printf("FAIL omp_nested_parallel %d (team %d)\n", bad, team);
    return 1;
  }
  printf("ok omp_nested_parallel\n");
  return 0;
}
