// Reductions into global scalars: a combined parallel for with + and max, and two omp for
// loops inside one parallel region reducing into the same global, each starting from the
// global's value before it.
#include <stdio.h>

#define N 100

long total = 5;
int top = -1;
double acc = 0.5;

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = (i * 37) % 101;
#pragma omp parallel for reduction(+ : total) reduction(max : top)
  for (int i = 0; i < N; i++) {
    total += a[i];
    if (a[i] > top)
      top = a[i];
  }
#pragma omp parallel
  {
#pragma omp for reduction(+ : acc)
    for (int i = 0; i < N; i++)
      acc += 0.25 * a[i];
#pragma omp for reduction(+ : acc)
    for (int i = 0; i < N; i++)
      acc += 0.5 * a[i];
  }
  long expect_total = 5;
  int expect_top = -1;
  double expect_acc = 0.5;
  for (int i = 0; i < N; i++) {
    expect_total += a[i];
    expect_top = a[i] > expect_top ? a[i] : expect_top;
    expect_acc += 0.25 * a[i];
  }
  for (int i = 0; i < N; i++)
    expect_acc += 0.5 * a[i];
  if (total != expect_total || top != expect_top || acc != expect_acc) {
    printf("FAIL omp_reduction_global %ld %d %.2f\n", total, top, acc);
    return 1;
  }
  printf("ok omp_reduction_global %ld %d %.2f\n", total, top, acc);
  return 0;
}
