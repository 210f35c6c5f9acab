/* lastprivate(conditional: x) on parallel for: x gets the value the sequentially last
   iteration that set it gave it, also when the loop counts down; a variable no iteration
   sets keeps its value. */
#include <stdio.h>

#define N 1024

int main(void) {
  int a[N];
  int x = 0, y = -7, z = 5;
  double w = 0.0;
#pragma omp parallel for lastprivate(conditional: x, w, z)
  for (int k = 0; k < N; k++) {
    a[k] = k;
    if (k == 24 || k == 123)
      x = a[k];
    if (k % 100 == 7)
      w = k * 0.5;
    if (k > N)
      z = -1;
  }
#pragma omp parallel for lastprivate(conditional: y)
  for (int k = N - 1; k >= 0; k--)
    if (k % 10 == 3)
      y = k;
  int ok = x == 123 && w == 503.5 && z == 5 && y == 3;
  if (!ok) {
    printf("FAIL omp_lastprivate_conditional %d %.1f %d %d\n", x, w, z, y);
    return 1;
  }
  printf("ok omp_lastprivate_conditional %d %.1f %d %d\n", x, w, z, y);
  return 0;
}
