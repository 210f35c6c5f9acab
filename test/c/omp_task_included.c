/* Tasks created inside a task (with a taskwait and with depend among the inner ones) and
   tasks created in an omp for's body: every result is the same whenever the inner tasks
   run, as long as the taskwait and the loop's end wait for them. */
#include <stdio.h>

#define N 64

int main(void) {
  int a[4] = {0, 0, 0, 0}, b[N], chain = 0;
  for (int i = 0; i < N; i++)
    b[i] = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task
    {
      a[0] = 1;
#pragma omp task
      a[1] = 2;
#pragma omp taskwait
      a[2] = a[1] + 1;
#pragma omp task depend(out: chain)
      chain = 5;
#pragma omp task depend(inout: chain)
      chain = chain * 3;
#pragma omp taskwait
      a[3] = chain + 1;
    }
  }
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
      b[i] = 2 * i;
    }
  }
  int sum = 0;
  for (int i = 0; i < N; i++)
    sum += b[i];
  if (a[0] != 1 || a[1] != 2 || a[2] != 3 || a[3] != 16 || sum != N * (N - 1)) {
    printf("FAIL omp_task_included %d %d %d %d %d\n", a[0], a[1], a[2], a[3], sum);
    return 1;
  }
  printf("ok omp_task_included %d\n", sum);
  return 0;
}
