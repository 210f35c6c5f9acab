// schedule(static, c) deals chunk k of the iterations to thread k mod T, so a body that
// records omp_get_thread_num() sees that thread for every iteration of chunk k: on a
// parallel for, on an omp for inside a region (with nowait, then a barrier), with a chunk
// that does not divide the iterations, a chunk given by a variable, a descending loop and
// a firstprivate variable.  Each thread also counts its iterations in its own slot.
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif
#include <stdio.h>

#define N 61
#define MAX_TEAM 64

int main(void) {
  int fails = 0;
  int owner[N], down[N], team = 1;
  int counts[MAX_TEAM];
  for (int t = 0; t < MAX_TEAM; t++)
    counts[t] = 0;
#pragma omp parallel for schedule(static, 7)
  for (int i = 0; i < N; i++) {
    owner[i] = omp_get_thread_num();
    if (i == 0)
      team = omp_get_num_threads();
  }
  for (int i = 0; i < N; i++)
    if (owner[i] != (i / 7) % team) fails++;

  int chunk = 3, base = 100;
#pragma omp parallel firstprivate(base)
  {
#pragma omp for schedule(static, chunk) nowait
    for (int i = N - 1; i >= 0; i--) {
      int t = omp_get_thread_num();
      down[i] = base + t;
      if (t < MAX_TEAM)
        counts[t] += 1;
    }
#pragma omp barrier
  }
  int total = 0;
  for (int i = N - 1; i >= 0; i--)
    if (down[i] != 100 + ((N - 1 - i) / 3) % team) fails++;
  for (int t = 0; t < MAX_TEAM; t++)
    total += counts[t];
  if (total != N) fails++;

  if (fails) {
    printf("FAIL omp_static_chunk_threads %d (team %d)\n", fails, team);
    return 1;
  }
  printf("ok omp_static_chunk_threads %d\n", total);
  return 0;
}
