/* taskloop with reduction (+, *, max) and lastprivate: each chunk works on its own copies;
   the sums meet in the variables when the taskloop's taskgroup ends, and the chunk holding
   the last iteration stores its lastprivate value. */
#include <stdio.h>

#define N 1000

int main(void) {
  long sum = 0;
  double product = 1.0;
  int top = -1, last = -1;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop reduction(+: sum) reduction(*: product) reduction(max: top) grainsize(64)
    for (int i = 0; i < N; i++) {
      sum += i;
      if (i % 100 == 0)
        product *= 2.0;
      top = top > i % 517 ? top : i % 517;
    }
#pragma omp taskloop lastprivate(last) num_tasks(7)
    for (int i = 0; i < N; i++)
      last = 3 * i;
  }
  if (sum != (long)N * (N - 1) / 2 || product != 1024.0 || top != 516 || last != 3 * (N - 1)) {
    printf("FAIL omp_taskloop_reduction %ld %g %d %d\n", sum, product, top, last);
    return 1;
  }
  printf("ok omp_taskloop_reduction %ld %d\n", sum, last);
  return 0;
}
