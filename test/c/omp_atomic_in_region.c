// #pragma omp atomic inside a #pragma omp parallel region (not a loop):
// every thread of the team adds 10 to a shared counter and 1 to a thread
// counter.  The team size is not printed; the check is that the counter is
// 10 times the number of threads that ran, and at least 10.  One thread
// records the team size under #pragma omp single (API inside the guard).
#include <stdio.h>

#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_num_threads(void) { return 1; }
#endif

int main(void) {
  int fails = 0;
  int counter = 0;
  int threads = 0;
  int team = 0;
#pragma omp parallel
  {
    int add = 10;
#pragma omp atomic
    counter += add;
#pragma omp atomic
    threads++;
#pragma omp single
    team = omp_get_num_threads();
  }
  if (counter < 10 || counter % 10 != 0) fails++;
  if (counter != 10 * threads) fails++;
  if (threads != team) fails++;
  int ok10 = (counter % 10 == 0);
  if (fails) {
    printf("FAIL omp_atomic_in_region %d %d %d\n", counter, threads, team);
    return 1;
  }
  printf("ok omp_atomic_in_region %d\n", ok10);
  return 0;
}
