/* masked filter(n): only thread n runs the statement, with no barrier after it; a
   filter naming no thread of the team runs nothing; outside a region the one thread is
   number 0. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

int main(void) {
  int seen[4] = {-1, -1, -1, -1};
  int who = -1, ran = 0, team = 1, absent = 0, outside = 0, combined = 0;
#pragma omp parallel num_threads(4) shared(who, ran, team, absent)
  {
#pragma omp masked filter(3)
    {
      who = omp_get_thread_num();
      team = omp_get_num_threads();
      ran++;
    }
#pragma omp masked filter(7)
    absent++;
#pragma omp barrier
    seen[omp_get_thread_num()] = who;
  }
#pragma omp masked filter(1)
  outside++;
#pragma omp parallel masked filter(2) num_threads(3)
  combined += 10;

  int ok;
#ifdef _OPENMP
  /* a team of 4, unless the runtime gave fewer threads */
  ok = team == 4 ? who == 3 && ran == 1 && seen[0] == 3 && seen[3] == 3 && absent == 0 &&
                       outside == 0 && combined == 10
                 : ran == 0 && outside == 0;
#else
  ok = who == 0 && ran == 1 && absent == 1 && outside == 1 && combined == 10 && seen[0] == 0;
#endif
  if (!ok) {
    printf("FAIL omp_masked_filter %d %d %d %d %d %d\n", who, ran, team, absent, outside, combined);
    return 1;
  }
  printf("ok omp_masked_filter\n");
  return 0;
}
