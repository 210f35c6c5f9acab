// omp_set_num_threads(n) as a statement of the function: the regions after it have n
// threads (without a num_threads clause), omp_get_max_threads() answers n, and restoring
// the value read before gives the default team again; omp_get_thread_limit() is at least
// any team's size.
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_max_threads(void) { return 1; }
static void omp_set_num_threads(int n) { (void)n; }
static int omp_get_num_threads(void) { return 1; }
static int omp_get_thread_limit(void) { return 1; }
#endif
#include <stdio.h>

static int team_size(void) {
  int team = 0;
#pragma omp parallel
#pragma omp single
  team = omp_get_num_threads();
  return team;
}

int main(void) {
  int fails = 0;
  int before = omp_get_max_threads();
  omp_set_num_threads(3);
  int max3 = omp_get_max_threads();
  int team3 = 0, seen[3] = {0, 0, 0};
#pragma omp parallel
  {
#pragma omp single
    team3 = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < 3; i++)
      seen[i] = 1;
  }
  omp_set_num_threads(before);
  int again = omp_get_max_threads();
  int limit_ok = omp_get_thread_limit() >= team3;
#ifdef _OPENMP
  if (max3 != 3 || team3 != 3 || again != before) fails++;
#endif
  if (seen[0] + seen[1] + seen[2] != 3 || !limit_ok || team_size() < 1) fails++;
  if (fails) {
    printf("FAIL omp_set_num_threads %d: %d %d %d %d\n", fails, max3, team3, again, before);
    return 1;
  }
  printf("ok omp_set_num_threads\n");
  return 0;
}
