// reduction(*: ...) on int, long and double: factorials and powers of two,
// exact in every combination order.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int ip = 1;
#pragma omp parallel for reduction(* : ip)
  for (int i = 1; i <= 12; i++)
    ip *= i;
  long lp = 1;
#pragma omp parallel for reduction(* : lp)
  for (int i = 1; i <= 20; i++)
    lp *= i;
  double dp = 1.0;
#pragma omp parallel for reduction(* : dp)
  for (int i = 0; i < 60; i++)
    dp *= (i % 2 == 0) ? 2.0 : 0.5 * 4.0; /* 2 each time */
  double half = 1.0;
#pragma omp parallel for reduction(* : half)
  for (int i = 0; i < 30; i++)
    half *= 0.5;
  if (ip != 479001600 || lp != 2432902008176640000L) fails++;
  if (dp != 1152921504606846976.0 || half * 1073741824.0 != 1.0) fails++;
  if (fails) {
    printf("FAIL omp_reduction_prod %d\n", fails);
    return 1;
  }
  printf("ok omp_reduction_prod %d %ld %.0f\n", ip, lp, dp);
  return 0;
}
