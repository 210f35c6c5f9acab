// In a region nested in another (a team of one), omp_get_team_size and
// omp_get_ancestor_thread_num of level 2 describe that team of one (1 and 0), and of
// level 3 nothing (-1); level 1 is the outer team.
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_ancestor_thread_num(int level) { return level == 0 ? 0 : -1; }
static int omp_get_team_size(int level) { return level == 0 ? 1 : -1; }
#endif
#include <stdio.h>

int main(void) {
  int fails = 0;
  int size2 = -9, anc2 = -9, size3 = -9;
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel
    {
#pragma omp master
      {
        int t = omp_get_ancestor_thread_num(1);
        if (t == 0) {
          size2 = omp_get_team_size(2);
          anc2 = omp_get_ancestor_thread_num(2);
          size3 = omp_get_team_size(3);
        }
      }
    }
  }
#ifdef _OPENMP
  if (size2 != 1 || anc2 != 0 || size3 != -1) fails++;
#endif
  if (fails) {
    printf("FAIL omp_nested_levels %d: %d %d %d\n", fails, size2, anc2, size3);
    return 1;
  }
  printf("ok omp_nested_levels\n");
  return 0;
}
