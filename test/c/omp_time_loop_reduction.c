// A time loop inside a parallel region whose work-sharing loop reduces into an element
// and a section of local arrays (each thread's own copies, set again at every step) with a
// barrier after each step.
#include <stdio.h>

#define N 120

int main(void) {
  int g[N];
  double acc[4] = {0, 0, 0, 0};
  long hist[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < N; i++)
    g[i] = (i * 5) % 17;
#pragma omp parallel
  {
    for (int step = 0; step < 4; step++) {
#pragma omp for reduction(+: acc[1]) reduction(+: hist[2:3])
      for (int i = 0; i < N; i++) {
        acc[1] += g[i] * 0.5;
        hist[2 + g[i] % 3] += 1;
      }
#pragma omp barrier
    }
  }
  long total = hist[2] + hist[3] + hist[4];
  if (acc[0] != 0 || acc[2] != 0 || hist[0] != 0 || hist[5] != 0 || total != 4 * N) {
    printf("FAIL omp_time_loop_reduction %g %ld\n", acc[1], total);
    return 1;
  }
  printf("ok omp_time_loop_reduction %g %ld %ld %ld\n", acc[1], hist[2], hist[3], hist[4]);
  return 0;
}
