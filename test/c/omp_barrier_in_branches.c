/* Barriers and worksharing loops inside a region's time loop and inside branches every
   thread takes alike (a condition on the step, a value from outside the region), with
   per-thread values computed from the thread's number before the loop and work after
   it. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

#define N 96

int main(int argc, char **argv) {
  double a[N], b[N];
  int seen[16];
  for (int i = 0; i < N; i++)
    a[i] = i % 5;
  for (int t = 0; t < 16; t++)
    seen[t] = 0;
  int steps = 5, smooth = argc > 0;
#pragma omp parallel
  {
    int tid = omp_get_thread_num();
    for (int s = 0; s < steps; s++) {
#pragma omp for
      for (int i = 0; i < N; i++)
        b[i] = 0.5 * a[i] + s;
      if (s % 2 == 0) {
#pragma omp barrier
#pragma omp for
        for (int i = 1; i < N - 1; i++)
          a[i] = (b[i - 1] + b[i] + b[i + 1]) / 4;
      }
      if (smooth) {
#pragma omp for
        for (int i = 0; i < N; i++)
          a[i] = a[i] * 0.75 + b[i] * 0.25;
      }
    }
    seen[tid] = tid + 1;
  }
  /* the same steps in order */
  double ra[N], rb[N];
  for (int i = 0; i < N; i++)
    ra[i] = i % 5;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < N; i++)
      rb[i] = 0.5 * ra[i] + s;
    if (s % 2 == 0)
      for (int i = 1; i < N - 1; i++)
        ra[i] = (rb[i - 1] + rb[i] + rb[i + 1]) / 4;
    if (smooth)
      for (int i = 0; i < N; i++)
        ra[i] = ra[i] * 0.75 + rb[i] * 0.25;
  }
  int ok = seen[0] == 1;
  double sum = 0;
  for (int i = 0; i < N; i++) {
    ok = ok && a[i] == ra[i];
    sum += a[i];
  }
  if (!ok) {
    printf("FAIL omp_barrier_in_branches %.6f %d\n", sum, seen[0]);
    return 1;
  }
  printf("ok omp_barrier_in_branches %.6f\n", sum);
  return 0;
}
