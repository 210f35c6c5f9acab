/* Scans: reduction(inscan, ...) with '#pragma omp scan' on parallel for loops, an
   inclusive prefix sum from a starting value, an exclusive one (its scan phase before the
   directive), a running maximum of doubles, and two variables scanned together. */
#include <stdio.h>

#define N 240

int main(void) {
  int a[N], inc[N], exc[N];
  double w[N], peak[N];
  long evens[N], odds[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 13) % 7 + 1;
    w[i] = ((i * 37) % 101) * 0.5;
  }
  int x = 10, y = 0;
  double top = -1.0;
  long e = 0, o = 0;
#pragma omp parallel for reduction(inscan, +: x)
  for (int i = 0; i < N; i++) {
    x += a[i];
#pragma omp scan inclusive(x)
    inc[i] = x;
  }
#pragma omp parallel for simd reduction(inscan, +: y)
  for (int i = 0; i < N; i++) {
    exc[i] = y;
#pragma omp scan exclusive(y)
    y += a[i];
  }
#pragma omp parallel for reduction(inscan, max: top)
  for (int i = 0; i < N; i++) {
    if (w[i] > top)
      top = w[i];
#pragma omp scan inclusive(top)
    peak[i] = top;
  }
#pragma omp parallel for reduction(inscan, +: e, o)
  for (int i = 0; i < N; i++) {
    if (i % 2 == 0)
      e += i;
    else
      o += i;
#pragma omp scan inclusive(e, o)
    evens[i] = e;
    odds[i] = o;
  }
  /* the same in order */
  int rx = 10, ry = 0, ok = 1;
  double rtop = -1.0;
  long re = 0, ro = 0;
  for (int i = 0; i < N; i++) {
    ok = ok && exc[i] == ry;
    rx += a[i];
    ry += a[i];
    if (w[i] > rtop)
      rtop = w[i];
    if (i % 2 == 0)
      re += i;
    else
      ro += i;
    ok = ok && inc[i] == rx && peak[i] == rtop && evens[i] == re && odds[i] == ro;
  }
  ok = ok && x == rx && y == ry && top == rtop && e == re && o == ro;
  if (!ok) {
    printf("FAIL omp_scan %d %d %.1f %ld %ld\n", x, y, top, e, o);
    return 1;
  }
  printf("ok omp_scan %d %d %.1f %ld %ld\n", x, y, top, e, o);
  return 0;
}
