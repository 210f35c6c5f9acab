/* The routines that describe the team, called inside a parallel region: the level (1), whether
   it is active (more than one thread), the team's size and thread numbers at each level; and
   a lock around a shared counter that every thread increments. */
#ifdef _OPENMP /* the region must run: not in a build that ignores the pragmas */
#include <omp.h>
#endif
#include <stdio.h>

#define MAX_TEAM 64
#define ROUNDS 1000

int main(void) {
  int wrong[MAX_TEAM];
  for (int t = 0; t < MAX_TEAM; t++)
    wrong[t] = 0;
  int count = 0, team = 1;
#ifdef _OPENMP /* the region must run: not in a build that ignores the pragmas */
  omp_lock_t lock;
  omp_init_lock(&lock);
#pragma omp parallel
  {
    int me = omp_get_thread_num();
    int size = omp_get_num_threads();
    int bad = 0;
    if (omp_in_parallel() != (size > 1))
      bad += 1;
    if (omp_get_level() != 1)
      bad += 2;
    if (omp_get_active_level() != (size > 1))
      bad += 4;
    if (omp_get_team_size(1) != size || omp_get_team_size(0) != 1 || omp_get_team_size(2) != -1)
      bad += 8;
    if (omp_get_ancestor_thread_num(1) != me || omp_get_ancestor_thread_num(0) != 0 ||
        omp_get_ancestor_thread_num(2) != -1)
      bad += 16;
    for (int i = 0; i < ROUNDS; i++) {
      omp_set_lock(&lock);
      count = count + 1;
      omp_unset_lock(&lock);
    }
    if (me < MAX_TEAM)
      wrong[me] = bad;
    if (me == 0)
      team = size;
  }
  omp_destroy_lock(&lock);
#else
  count = ROUNDS;
#endif
  int bad = 0;
  for (int t = 0; t < MAX_TEAM; t++)
    bad |= wrong[t];
  if (bad || count != ROUNDS * team) {
    printf("FAIL omp_team_routines %d %d\n", bad, count - ROUNDS * team);
    return 1;
  }
  printf("ok omp_team_routines\n");
  return 0;
}
