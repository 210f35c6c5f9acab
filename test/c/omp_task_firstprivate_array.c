/* A task's firstprivate array (named, or under default(firstprivate) in a taskloop): the
   task works on a copy of its own, the array outside is unchanged. */
#include <stdio.h>

#define N 64

int main(void) {
  int a[N], b[N], off = 3;
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 0;
  }
#pragma omp parallel
#pragma omp single
#pragma omp taskloop default(firstprivate) shared(b) grainsize(8)
  for (int i = 0; i < N; i++) {
    off += 1;
    a[i] += 100;
    b[i] = a[i] + off;
  }
  int c[4] = {1, 2, 3, 4}, out[2] = {0, 0};
#pragma omp parallel
#pragma omp single
  {
#pragma omp task firstprivate(c) shared(out)
    {
      c[0] += 10;
      out[0] = c[0] + c[3];
    }
#pragma omp task firstprivate(c) shared(out)
    out[1] = c[0] * 100;
  }
  int ok = out[0] == 15;
  for (int i = 0; i < N; i++)
    ok = ok && b[i] >= i + 104 && b[i] <= i + 103 + N;
#ifdef _OPENMP
  ok = ok && off == 3 && out[1] == 100 && c[0] == 1;
  for (int i = 0; i < N; i++)
    ok = ok && a[i] == i;
#endif
  if (!ok) {
    printf("FAIL omp_task_firstprivate_array %d %d %d %d\n", out[0], out[1], c[0], off);
    return 1;
  }
  printf("ok omp_task_firstprivate_array %d\n", out[0]);
  return 0;
}
