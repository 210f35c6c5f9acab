// #pragma omp master inside a parallel region: only thread 0 runs the
// block (no implied barrier, so an explicit barrier follows before the
// other threads read what it wrote).
#include <stdio.h>
#include <stdlib.h>

#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

int main(void) {
  int n = 4000;
  int fails = 0;
  int master_runs = 0;
  int master_tid = -1;
  int base = 0;
  int *out = (int *)malloc(n * sizeof(int));
#pragma omp parallel
  {
#pragma omp master
    {
      master_runs++;
      master_tid = omp_get_thread_num();
      base = 1000;
    }
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < n; i++)
      out[i] = base + i;
  }
  long s = 0;
  for (int i = 0; i < n; i++)
    s += out[i];
  if (master_runs != 1 || master_tid != 0) fails++;
  if (s != 1000L * n + (long)n * (n - 1) / 2) fails++;
  free(out);
  if (fails) {
    printf("FAIL omp_master %d\n", fails);
    return 1;
  }
  printf("ok omp_master %d %ld\n", master_runs, s);
  return 0;
}
