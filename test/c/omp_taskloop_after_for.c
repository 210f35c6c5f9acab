// A taskloop in a single region that rewrites an array a parallel loop wrote before, with a
// value the host read in between, then the host reads the array again. On several nodes the
// array is split over the nodes after the first loop, so the taskloop's writes to the other
// node's part must reach the host.
#include <stdio.h>

int main(void) {
  long a[8];
  long m[8][8];
#pragma omp parallel for
  for (int i = 0; i < 8; i++)
    a[i] = i;
  long x = a[5];
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop num_tasks(1)
    for (int i = 0; i < 8; i++)
      a[i] = x + 100;
  }
  long first = a[0], last = a[7];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      m[i][j] = a[i] + j;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(2)
    for (int i = 0; i < 8; i++)
      a[i] = m[i][1] + m[7 - i][2];
  }
  long s = 0;
  for (int i = 0; i < 8; i++)
    s += a[i];
  if (first != 105 || last != 105 || s != 8 * 213) {
    printf("FAIL omp_taskloop_after_for %ld %ld %ld\n", first, last, s);
    return 1;
  }
  printf("ok omp_taskloop_after_for %ld %ld %ld\n", first, last, s);
  return 0;
}
