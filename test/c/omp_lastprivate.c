// lastprivate(x) on a parallel for: every iteration assigns x = f(i) with
// f(i) = 3 i + 7 (and a double y = 0.5 i); after the loop x and y must hold
// the values of the sequentially last iteration, f(n - 1), whichever
// thread ran it.  The loop also writes b[i] so the work is real.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 10001;
  int fails = 0;
  int *b = (int *)malloc(n * sizeof(int));
  int x = -1;
  double y = -1.0;
#pragma omp parallel for lastprivate(x, y)
  for (int i = 0; i < n; i++) {
    x = 3 * i + 7;
    y = 0.5 * i;
    b[i] = x;
  }
  if (x != 3 * (n - 1) + 7) fails++;
  if (y != 0.5 * (n - 1)) fails++;
  for (int i = 0; i < n; i++)
    if (b[i] != 3 * i + 7) fails++;
  free(b);
  if (fails) {
    printf("FAIL omp_lastprivate %d %d %f\n", fails, x, y);
    return 1;
  }
  printf("ok omp_lastprivate %d %.1f\n", x, y);
  return 0;
}
