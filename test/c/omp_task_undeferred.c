/* A task with if(0) and no depend items, created by every thread of a team: undeferred,
   so the creating thread runs it at once, as itself (its thread number, its threadprivate
   copy), and a taskwait inside it has nothing to wait for. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

#define T 4

int mark;
#pragma omp threadprivate(mark)

static int whoami(void) { return omp_get_thread_num(); }

int main(void) {
  int ran_by[T], copies[T];
  for (int t = 0; t < T; t++)
    ran_by[t] = copies[t] = -1;
  mark = 7;
#pragma omp parallel num_threads(T) shared(ran_by, copies)
  {
    int me = omp_get_thread_num();
#pragma omp task if(0)
    {
      ran_by[me] = whoami();
#pragma omp taskwait
      mark = me * 10;
      copies[me] = mark;
    }
  }
  int ok = ran_by[0] == 0 && copies[0] == 0 && mark == 0;
  for (int t = 1; t < T; t++)
    ok = ok && (ran_by[t] == -1 || (ran_by[t] == t && copies[t] == t * 10));
  if (!ok) {
    printf("FAIL omp_task_undeferred %d %d %d\n", ran_by[0], copies[0], mark);
    return 1;
  }
  printf("ok omp_task_undeferred\n");
  return 0;
}
