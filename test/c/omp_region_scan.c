// An `omp for` scan that is the whole of its parallel region (in a block, and stacked on
// the region's directive), which is the `parallel for` scan: inclusive and exclusive, a
// region with num_threads and a private scratch variable.
#include <stdio.h>

#define N 500

int main(void) {
  int a[N], inc[N], exc[N];
  for (int i = 0; i < N; i++)
    a[i] = (i * 3) % 7 - 2;
  int x = 0, y = 10, t = 0;
#pragma omp parallel num_threads(3) private(t)
  {
#pragma omp for reduction(inscan, +: x)
    for (int i = 0; i < N; i++) {
      t = a[i] * 2;
      x += t;
#pragma omp scan inclusive(x)
      inc[i] = x;
    }
  }
#pragma omp parallel
#pragma omp for reduction(inscan, +: y)
  for (int i = 0; i < N; i++) {
    exc[i] = y;
#pragma omp scan exclusive(y)
    y += a[i];
  }
  int bad = 0, s = 0, e = 10;
  for (int i = 0; i < N; i++) {
    bad += exc[i] != e;
    e += a[i];
    s += 2 * a[i];
    bad += inc[i] != s;
  }
  if (bad || x != s || y != e) {
    printf("FAIL omp_region_scan %d %d %d\n", bad, x, y);
    return 1;
  }
  printf("ok omp_region_scan %d %d\n", x, y);
  return 0;
}
