// reduction(+: ...) on int, long, float and double accumulators; all summed
// values are exactly representable so the result is independent of the
// order in which the threads' partial sums are combined.
#include <stdio.h>

int main(void) {
  int n = 100000;
  int fails = 0;
  int isum = 0;
  long lsum = 0;
  float fsum = 0.0f;
  double dsum = 0.0;
#pragma omp parallel for reduction(+ : isum)
  for (int i = 0; i < n; i++)
    isum += i % 7;
#pragma omp parallel for reduction(+ : lsum)
  for (int i = 0; i < n; i++)
    lsum += (long)i * i;
#pragma omp parallel for reduction(+ : fsum)
  for (int i = 0; i < 4096; i++)
    fsum += 0.5f; /* exact up to 2^24 */
#pragma omp parallel for reduction(+ : dsum)
  for (int i = 0; i < n; i++)
    dsum += (double)(i % 1000) * 0.25; /* exact in binary64 */
  int iexp = 0;
  for (int i = 0; i < n; i++)
    iexp += i % 7;
  long lexp = (long)(n - 1) * n * (2L * n - 1) / 6;
  double dexp = 100.0 * 0.25 * (999.0 * 1000.0 / 2.0);
  if (isum != iexp || lsum != lexp || fsum != 2048.0f || dsum != dexp) fails++;
  if (fails) {
    printf("FAIL omp_reduction_sum %d %d %ld %f %f\n", isum, iexp, lsum, fsum, dsum);
    return 1;
  }
  printf("ok omp_reduction_sum %d %ld %.1f %.2f\n", isum, lsum, fsum, dsum);
  return 0;
}
