// reduction(+) and reduction(max) on global scalars in a parallel for: the sum and the maximum.
#include <stdio.h>

#define N 100

static long total = 5;
static int top = -1;

int main(void)
{
  int a[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 37) % 101;
  }
#pragma omp parallel for reduction(+: total) reduction(max: top)
  for (int i = 0; i < N; i++) {
    total += a[i];
    if (a[i] > top) {
      top = a[i];
    }
  }
  printf("total %ld top %d\n", total, top);
  return 0;
}
