/* omp scope with a reduction (every thread contributes once, the total is there after the
   scope's barrier), depend(mutexinoutset) tasks (exclusive, in any order), the affinity
   clause (a hint) and taskwait depend (waits for the tasks it names). */
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif
#include <stdio.h>

int main(void) {
  int total = 0, after = 0, team = 1, x = 0, y = 0;
#pragma omp parallel
  {
    int me = 0;
#if defined(_OPENMP) || defined(__CARTS__)
    me = omp_get_thread_num();
#endif
#pragma omp scope reduction(+: total)
    total += me + 1;
#pragma omp single
    {
#if defined(_OPENMP) || defined(__CARTS__)
      team = omp_get_num_threads();
#endif
      after = total;
    }
  }
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(mutexinoutset: x)
    x += 1;
#pragma omp task depend(mutexinoutset: x) affinity(x)
    x += 2;
#pragma omp task depend(out: y)
    y = 7;
#pragma omp taskwait depend(in: x)
    x = x * 10;
#pragma omp taskwait
  }
  if (total != team * (team + 1) / 2 || after != total || x != 30 || y != 7) {
    printf("FAIL omp_scope_taskwait_depend %d %d %d %d (team %d)\n", total, after, x, y, team);
    return 1;
  }
  printf("ok omp_scope_taskwait_depend\n");
  return 0;
}
