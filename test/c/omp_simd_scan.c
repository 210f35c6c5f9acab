// `simd reduction(inscan, ...)`: a loop one thread runs in order, so its `scan` directive
// leaves each iteration seeing the total up to it (inclusive) or before it (exclusive);
// and `parallel for simd` with an inscan reduction, which is the `parallel for` scan.
#include <stdio.h>

#define N 700

int main(void) {
  int a[N], inc[N], exc[N], par[N];
  double w[N], run[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 7) % 11 - 3;
    w[i] = 0.5 * (i % 4);
  }
  int x = 0, y = 5, z = 0;
  double m = -1.0;
#pragma omp simd reduction(inscan, +: x)
  for (int i = 0; i < N; i++) {
    x += a[i];
#pragma omp scan inclusive(x)
    inc[i] = x;
  }
#pragma omp simd reduction(inscan, +: y) simdlen(8)
  for (int i = 0; i < N; i++) {
    exc[i] = y;
#pragma omp scan exclusive(y)
    y += a[i];
  }
#pragma omp simd reduction(inscan, max: m)
  for (int i = 0; i < N; i++) {
    if (w[i] * (i % 9) > m)
      m = w[i] * (i % 9);
#pragma omp scan inclusive(m)
    run[i] = m;
  }
#pragma omp parallel for simd reduction(inscan, +: z)
  for (int i = 0; i < N; i++) {
    z += a[i];
#pragma omp scan inclusive(z)
    par[i] = z;
  }
  int bad = 0, s = 0;
  double best = -1.0;
  for (int i = 0; i < N; i++) {
    bad += exc[i] != s + 5;
    s += a[i];
    bad += inc[i] != s || par[i] != s;
    if (w[i] * (i % 9) > best)
      best = w[i] * (i % 9);
    bad += run[i] != best;
  }
  if (bad || x != s || y != s + 5 || z != s || m != best) {
    printf("FAIL omp_simd_scan %d wrong, %d %d %d %g\n", bad, x, y, z, m);
    return 1;
  }
  printf("ok omp_simd_scan total=%d max=%g\n", x, m);
  return 0;
}
