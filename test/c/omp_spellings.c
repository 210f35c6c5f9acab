/* OpenMP 5.x spellings of the constructs of the subset: `loop` (a worksharing loop of its
   region; bind(thread): each thread's own loop), `parallel loop`, the `simd` forms (a hint),
   `order(concurrent)`, `parallel master`, `masked`, `master taskloop`, `flush`, and the
   proc_bind hint. */
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif
#include <stdio.h>

#define N 1000

int main(void) {
  int a[N], b[N];
  long sum = 0, sum2 = 0, sum3 = 0;
  int master_ran = 0, masked_ran = 0, tasks = 0;
#pragma omp parallel loop proc_bind(close)
  for (int i = 0; i < N; i++)
    a[i] = i;
#pragma omp parallel
  {
#pragma omp loop reduction(+: sum)
    for (int i = 0; i < N; i++)
      sum += a[i];
  }
#pragma omp parallel for simd simdlen(8) aligned(a: 64)
  for (int i = 0; i < N; i++)
    b[i] = 2 * a[i];
#pragma omp simd safelen(16) reduction(+: sum2)
  for (int i = 0; i < N; i++)
    sum2 += b[i];
#pragma omp parallel
  {
#pragma omp for simd order(concurrent)
    for (int i = 0; i < N; i++)
      b[i] = b[i] + 1;
  }
#pragma omp parallel for order(concurrent) reduction(+: sum3)
  for (int i = 0; i < N; i++)
    sum3 += b[i];
#pragma omp parallel master
  {
    master_ran = master_ran + 1;
  }
#pragma omp parallel
  {
#pragma omp masked
    masked_ran = masked_ran + 1;
  }
#pragma omp parallel
  {
#pragma omp master taskloop grainsize(100)
    for (int i = 0; i < N; i++)
      a[i] = 3 * i;
  }
#pragma omp flush
  for (int i = 0; i < N; i++)
    tasks += a[i] == 3 * i;
  long want = (long)N * (N - 1) / 2;
  if (sum != want || sum2 != 2 * want || sum3 != 2 * want + N || master_ran != 1 ||
      masked_ran != 1 || tasks != N) {
    printf("FAIL omp_spellings %ld %ld %ld %d %d %d\n", sum, sum2, sum3, master_ran,
           masked_ran, tasks);
    return 1;
  }
  printf("ok omp_spellings %ld\n", sum);
  return 0;
}
