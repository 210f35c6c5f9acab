/* Tasks created by helper functions: called from a taskgroup with a task reduction and
   from a taskloop's chunks (their in_reduction tasks join the reductions), and from the
   body of a worksharing loop (each task, with its taskwait, runs in the thread that
   creates it). */
#include <stdio.h>

#define N 200

int total;

static void spawn(int i) {
#pragma omp task in_reduction(+: total)
  total += 1 + i;
#pragma omp task in_reduction(+: total)
  total += 1 + 2 * i;
}

static void fill(int *v, int i) {
#pragma omp task firstprivate(i) shared(v)
  v[i] = i * 2;
#pragma omp taskwait
}

int main(void) {
  int expect = 2;
#pragma omp taskgroup task_reduction(+: total)
  spawn(0);
#pragma omp taskloop reduction(+: total)
  for (int i = 0; i < N; i++) {
    spawn(i);
    total += i;
  }
  for (int i = 0; i < N; i++)
    expect += 2 + 4 * i;
  int v[N];
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    fill(v, i);
  int ok = total == expect;
  for (int i = 0; i < N; i++)
    ok = ok && v[i] == 2 * i;
  if (!ok) {
    printf("FAIL omp_task_helpers %d %d %d\n", total, expect, v[N - 1]);
    return 1;
  }
  printf("ok omp_task_helpers %d\n", total);
  return 0;
}
