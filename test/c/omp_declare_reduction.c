// User-declared reductions whose combiner is a built-in operator's: a max written as ?:
// from INT_MIN, a min as fmin from DBL_MAX, a sum as omp_out = omp_in + omp_out, an OR as
// |=, a product from 1, a count declared inside main; on parallel for, a parallel region
// and taskloop.
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif

#pragma omp declare reduction(top : int : omp_out = omp_out > omp_in ? omp_out : omp_in) \
    initializer(omp_priv = INT_MIN)
#pragma omp declare reduction(lowest : double : omp_out = fmin(omp_in, omp_out)) \
    initializer(omp_priv = DBL_MAX)
#pragma omp declare reduction(total : long : omp_out = omp_in + omp_out)
#pragma omp declare reduction(bits : unsigned : omp_out |= omp_in) initializer(omp_priv = 0u)
#pragma omp declare reduction(prod : int : omp_out *= omp_in) initializer(omp_priv = 1)

int main(void) {
  int best = -5, product = 1;
  double low = 100;
  long sum = 3, region = 0;
  unsigned mask = 0;
#pragma omp parallel for reduction(top: best) reduction(lowest: low) reduction(total: sum) \
    reduction(bits: mask)
  for (int i = 0; i < 200; i++) {
    int v = (i * 37) % 101;
    if (v > best)
      best = v;
    low = fmin(low, v * 0.5 - 3);
    sum += i;
    mask |= 1u << (i % 9);
  }
#pragma omp declare reduction(count : long : omp_out += omp_in)
#pragma omp parallel reduction(count: region)
  region += 2;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(prod: product)
  for (int i = 0; i < 12; i++)
    product *= (i % 2) ? 2 : 1;
  int threads = 1;
#if defined(_OPENMP) || defined(__CARTS__)
#pragma omp parallel
#pragma omp single
  threads = omp_get_num_threads();
#endif
  if (best != 100 || low != -3 || sum != 19903 || mask != 511 || product != 64 ||
      region != 2L * threads) {
    printf("FAIL omp_declare_reduction %d %g %ld %u %d %ld\n", best, low, sum, mask, product,
           region);
    return 1;
  }
  printf("ok omp_declare_reduction %d %g %ld %u %d\n", best, low, sum, mask, product);
  return 0;
}
