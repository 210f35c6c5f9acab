// #pragma omp atomic capture hands out unique ticket numbers: the block
// form { v = x; x += 1; } in one loop and the expression form v = y++ in a
// second.  Which iteration gets which ticket depends on the schedule, so
// only the set is checked: the tickets must be a permutation of 0..n-1
// (seen[] marks each exactly once) and the counters must end at n.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 20000;
  int fails = 0;
  int *t1 = (int *)malloc(n * sizeof(int));
  int *t2 = (int *)malloc(n * sizeof(int));
  int *seen = (int *)malloc(n * sizeof(int));
  int x = 0;
  int y = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int v;
#pragma omp atomic capture
    {
      v = x;
      x += 1;
    }
    t1[i] = v;
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int v;
#pragma omp atomic capture
    v = y++;
    t2[i] = v;
  }
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < n; i++)
      seen[i] = 0;
    for (int i = 0; i < n; i++) {
      int v = (k == 0) ? t1[i] : t2[i];
      if (v < 0 || v >= n) fails++;
      else seen[v]++;
    }
    for (int i = 0; i < n; i++)
      if (seen[i] != 1) fails++;
  }
  if (x != n || y != n) fails++;
  free(t1);
  free(t2);
  free(seen);
  if (fails) {
    printf("FAIL omp_atomic_capture %d %d %d\n", fails, x, y);
    return 1;
  }
  printf("ok omp_atomic_capture %d %d\n", x, y);
  return 0;
}
