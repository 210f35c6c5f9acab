// Hand-written SPMD: each thread computes its own range from its number and the team's
// size once, then runs a time loop of two sweeps over it separated by barriers (a 3-point
// smoothing, B from A then A from B), and records its share after the loop.
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif

#define N 96

static int thread_number(void) {
#if defined(_OPENMP) || defined(__CARTS__)
  return omp_get_thread_num();
#else
  return 0;
#endif
}

static int team_size(void) {
#if defined(_OPENMP) || defined(__CARTS__)
  return omp_get_num_threads();
#else
  return 1;
#endif
}

int main(void) {
  double a[N], b[N];
  int share[8] = {0};
  for (int i = 0; i < N; i++) {
    a[i] = (i * 7) % 13;
    b[i] = 0;
  }
#pragma omp parallel num_threads(4)
  {
    int tid = thread_number(), nt = team_size();
    int lo = tid * N / nt, hi = (tid + 1) * N / nt;
    for (int step = 0; step < 6; step++) {
      for (int i = lo; i < hi; i++)
        b[i] = (a[(i + N - 1) % N] + a[i] + a[(i + 1) % N]) / 3.0;
#pragma omp barrier
      for (int i = lo; i < hi; i++)
        a[i] = b[i];
#pragma omp barrier
    }
    share[tid] = hi - lo;
  }
  double s = 0;
  int covered = 0;
  for (int i = 0; i < N; i++)
    s += a[i] * (i % 4);
  for (int t = 0; t < 8; t++)
    covered += share[t];
  if (covered != N) {
    printf("FAIL omp_spmd_time_loop covered %d\n", covered);
    return 1;
  }
  printf("ok omp_spmd_time_loop %.9f\n", s);
  return 0;
}
