// Clause arguments that are expressions calling OpenMP routines: masked
// filter(omp_get_num_threads() - 1) picks the team's last thread, and a schedule chunk is
// computed from the team size.
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif
#include <stdio.h>

int main(void) {
  int fails = 0;
  int who = -1, team = 0, picked = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp masked filter(omp_get_num_threads() - 1)
    {
      who = omp_get_thread_num();
      team = omp_get_num_threads();
      picked += 1;
    }
  }
  if (who != team - 1 || picked != 1) fails++;

  long sum = 0;
#pragma omp parallel for schedule(dynamic, omp_get_num_threads() + 1) reduction(+: sum)
  for (int i = 0; i < 1000; i++)
    sum += i;
  if (sum != 499500) fails++;

  if (fails) {
    printf("FAIL omp_clause_expressions %d: %d %d %d %ld\n", fails, who, team, picked, sum);
    return 1;
  }
  printf("ok omp_clause_expressions %ld\n", sum);
  return 0;
}
