// omp_get_thread_num, omp_get_num_threads, omp_get_max_threads: outside a
// region there is one thread (number 0); inside, every thread has a distinct
// number below the team size, the team size is at most the maximum, and the
// ids seen cover 0 .. team size - 1.  Sequential fallback when built without
// OpenMP.  The printed line does not depend on the thread count.
#include <stdio.h>

#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
static int omp_get_max_threads(void) { return 1; }
#endif

#define MAXT 256

int main(void) {
  int fails = 0;
  int seen[MAXT];
  for (int t = 0; t < MAXT; t++)
    seen[t] = 0;
  int max_threads = omp_get_max_threads();
  if (max_threads < 1) fails++;
  if (omp_get_num_threads() != 1 || omp_get_thread_num() != 0) fails++;
  int team = 0;
  int bad = 0;
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
    int nt = omp_get_num_threads();
    if (tid < MAXT)
      seen[tid] = 1; /* each thread writes only its own slot */
#pragma omp master
    team = nt;
#pragma omp for reduction(+ : bad)
    for (int i = 0; i < 1000; i++)
      if (omp_get_thread_num() >= omp_get_num_threads())
        bad++;
  }
  int covered = 0;
  for (int t = 0; t < MAXT; t++)
    covered += seen[t];
  if (team < 1 || team > max_threads || bad != 0) fails++;
  if (team <= MAXT && covered != team) fails++;
  if (fails) {
    printf("FAIL omp_thread_api %d team=%d max=%d covered=%d\n", fails, team,
           max_threads, covered);
    return 1;
  }
  printf("ok omp_thread_api %d\n", bad);
  return 0;
}
