/* Per-thread values defined at the top of a parallel region and used after its barriers:
   the thread number, a value computed from it, in a per-thread store after a single, in an
   omp for's body, and after an explicit barrier. */
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif
#include <stdio.h>

#define MAX_TEAM 64
#define N 256

int main(void) {
  int seen[MAX_TEAM], after[MAX_TEAM], a[N];
  int team = 1;
  for (int t = 0; t < MAX_TEAM; t++) {
    seen[t] = 0;
    after[t] = 0;
  }
#pragma omp parallel
  {
    int tid = 0;
#if defined(_OPENMP) || defined(__CARTS__)
    tid = omp_get_thread_num();
#endif
    int code = 3 * tid + 1;
#pragma omp single
    {
#if defined(_OPENMP) || defined(__CARTS__)
      team = omp_get_num_threads();
#endif
    }
    if (tid < MAX_TEAM)
      seen[tid] = code;
#pragma omp for
    for (int i = 0; i < N; i++)
      a[i] = i + 0 * code;
#pragma omp barrier
    if (tid < MAX_TEAM)
      after[tid] = code + 1;
  }
  int bad = 0;
  for (int t = 0; t < MAX_TEAM; t++) {
    int want = t < team ? 3 * t + 1 : 0;
    bad += seen[t] != want || after[t] != (t < team ? want + 1 : 0);
  }
  for (int i = 0; i < N; i++)
    bad += a[i] != i;
  if (bad) {
    printf("FAIL omp_spmd_thread_values %d (team %d)\n", bad, team);
    return 1;
  }
  printf("ok omp_spmd_thread_values\n");
  return 0;
}
