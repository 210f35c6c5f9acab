// linear(x: step) on loops the threads share: iteration k starts with x at its value
// before the loop plus k * step, and after the loop x holds the copy of the sequentially
// last iteration (each body advances x, so a build that ignores the pragmas computes the
// same).  On parallel for, for inside a region, parallel for simd, with a step given by a
// variable and a loop that does not start at 0.
#include <stdio.h>

#define N 50

int main(void) {
  int fails = 0;
  int a[N], b[N], c[N];
  int j = 0;
#pragma omp parallel for linear(j: 2)
  for (int i = 0; i < N; i++) {
    a[i] = j;
    j += 2;
  }
  for (int i = 0; i < N; i++)
    if (a[i] != 2 * i) fails++;
  if (j != 2 * N) fails++;

  int k = 10, step = 3;
#pragma omp parallel
  {
#pragma omp for linear(k: step)
    for (int i = 5; i < N; i++) {
      b[i] = k;
      k += step;
    }
  }
  for (int i = 5; i < N; i++)
    if (b[i] != 10 + (i - 5) * 3) fails++;
  if (k != 10 + (N - 5) * 3) fails++;

  long m = 100;
#pragma omp parallel for simd linear(m)
  for (int i = 0; i < N; i++) {
    c[i] = (int)m;
    m++;
  }
  for (int i = 0; i < N; i++)
    if (c[i] != 100 + i) fails++;
  if (m != 100 + N) fails++;

  if (fails) {
    printf("FAIL omp_linear %d: %d %d %ld\n", fails, j, k, m);
    return 1;
  }
  printf("ok omp_linear %d %d %ld\n", j, k, m);
  return 0;
}
