// SPMD code that splits its own work by the thread's number and waits at a barrier only
// when the team has more than one thread (`int nt = omp_get_num_threads(); if (nt > 1)
// { ...; barrier; ... }`): the branch is the same in every thread, so each reaches the
// barrier or none does.
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif

#define N 64

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
  double a[N];
  int counts[16] = {0};
  int team = 0;
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp parallel num_threads(4)
  {
    int tid = thread_number(), nt = team_size();
    int lo = tid * N / nt, hi = (tid + 1) * N / nt;
    for (int i = lo; i < hi; i++)
      a[i] *= 2;
    counts[tid] += hi - lo;
    if (nt > 1) {
      counts[tid] += 1;
#pragma omp barrier
      counts[tid] += 1;
    }
#pragma omp single
    team = nt;
  }
  double s = 0;
  int c = 0;
  for (int i = 0; i < N; i++)
    s += a[i] * (i % 3);
  for (int t = 0; t < 16; t++)
    c += counts[t];
  int want = N + (team > 1 ? 2 * team : 0);
  if (s != 3990 || c != want) {
    printf("FAIL omp_barrier_team_size %g %d %d\n", s, c, want);
    return 1;
  }
  printf("ok omp_barrier_team_size %g\n", s);
  return 0;
}
