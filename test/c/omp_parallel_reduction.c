/* Reductions on a parallel region (not on a loop): each thread contributes once, so the
   results depend on the team's size, which the program checks against its own count. */
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif
#include <stdio.h>

int main(void) {
  int count = 0, flags = 0, all = 1, top = -1;
  double product = 1.0;
  int team = 1;
#pragma omp parallel reduction(+: count) reduction(*: product) reduction(|: flags) \
    reduction(&&: all) reduction(max: top)
  {
    int me = 0;
#if defined(_OPENMP) || defined(__CARTS__)
    me = omp_get_thread_num();
    if (me == 0)
      team = omp_get_num_threads();
#endif
    count += me + 1;
    product *= 2.0;
    flags |= 1 << (me % 8);
    all = all && me >= 0;
    top = top > me ? top : me;
  }
  int want_flags = 0;
  for (int t = 0; t < team; t++)
    want_flags |= 1 << (t % 8);
  double want_product = 1.0;
  for (int t = 0; t < team; t++)
    want_product *= 2.0;
  if (count != team * (team + 1) / 2 || product != want_product || flags != want_flags ||
      !all || top != team - 1) {
    printf("FAIL omp_parallel_reduction %d %g %d %d %d (team %d)\n", count, product, flags, all,
           top, team);
    return 1;
  }
  printf("ok omp_parallel_reduction\n");
  return 0;
}
