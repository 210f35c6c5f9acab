// metadirective chosen when the program is compiled: when(device={kind(host)}) matches
// this host, kind(nohost) and implementation vendors do not, a constant user condition
// decides, and otherwise/default holds the variant of no match (an empty one: nothing).
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_num_threads(void) { return 1; }
#endif
#include <stdio.h>

#define BIG 1

int main(void) {
  int fails = 0;
  int a[64], team = 0, v = 0;
#pragma omp metadirective when(device = {kind(host)} : parallel for) default(for)
  for (int i = 0; i < 64; i++)
    a[i] = 2 * i;
#pragma omp metadirective when(device = {kind(nohost)} : parallel num_threads(1)) \
    otherwise(parallel num_threads(2))
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  long sum = 0;
#pragma omp metadirective when(user = {condition(BIG > 0)} : parallel for reduction(+: sum)) \
    default(for)
  for (int i = 0; i < 64; i++)
    sum += a[i];
#pragma omp metadirective when(implementation = {vendor(gnu, llvm)} : parallel) default()
  v += 1;
  for (int i = 0; i < 64; i++)
    if (a[i] != 2 * i) fails++;
  if (sum != 4032 || v != 1) fails++;
#if defined(_OPENMP) && defined(__CARTS__) /* gcc 12 ignores metadirectives */
  if (team != 2) fails++;
#endif
  if (fails) {
    printf("FAIL omp_metadirective %d: %d %ld %d\n", fails, team, sum, v);
    return 1;
  }
  printf("ok omp_metadirective %ld\n", sum);
  return 0;
}
