/* threadprivate globals: each thread's copy keeps its value from one region to the next
   (same team size), a function the region calls uses the caller's copy, and copyin sets
   every copy from the encountering thread's at the start of a region. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define T 4

int counter = 3;
static double acc[4] = {0.5, 0.5, 0.5, 0.5};
#pragma omp threadprivate(counter, acc)

static void bump(int by) { counter += by; }

int main(void) {
  int seen[T], again[T], team = 0;
  double sums[T], start[T];
  for (int t = 0; t < T; t++) {
    seen[t] = again[t] = -1;
    sums[t] = start[t] = -1.0;
  }
  counter = 7;
#pragma omp parallel num_threads(T) copyin(counter)
  {
    int me = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    seen[me] = counter;
    start[me] = acc[2];
    counter = me * 100;
    for (int k = 0; k < 4; k++)
      acc[k] = me + k;
    bump(5);
  }
#pragma omp parallel num_threads(T)
  {
    int me = omp_get_thread_num();
    again[me] = counter;
    sums[me] = acc[0] + acc[3];
  }
  int ok = team >= 1 && counter == 5 && acc[1] == 1.0;
  for (int t = 0; t < team; t++)
    ok = ok && seen[t] == 7 && start[t] == 0.5 && again[t] == t * 100 + 5 && sums[t] == 2 * t + 3;
  if (!ok) {
    printf("FAIL omp_threadprivate %d %d %d %d %.1f\n", team, counter, seen[0], again[team - 1],
           sums[0]);
    return 1;
  }
  printf("ok omp_threadprivate %d %d %.1f\n", counter, again[0], sums[0]);
  return 0;
}
