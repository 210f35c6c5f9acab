// omp_capture_affinity in a team: each thread expands "%n/%N/%L" into its own row and
// checks it against omp_get_thread_num(), omp_get_num_threads() and omp_get_level(); the
// initial thread's string is "0/1/0". Only the agreement is printed.
#include <stdio.h>
#include <string.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif

int main(void) {
  char rows[64][32];
  int mismatched = 0, captured = 0;
#if defined(_OPENMP) || defined(__CARTS__)
  char first[32];
  omp_capture_affinity(first, sizeof first, "%n/%N/%L");
  mismatched += strcmp(first, "0/1/0") != 0;
#pragma omp parallel reduction(+: mismatched, captured)
  {
    int me = omp_get_thread_num();
    if (me < 64) {
      char expect[32];
      size_t n = omp_capture_affinity(rows[me], sizeof rows[me], "%n/%N/%L");
      snprintf(expect, sizeof expect, "%d/%d/%d", me, omp_get_num_threads(), omp_get_level());
      mismatched += strcmp(rows[me], expect) != 0 || n != strlen(expect);
      captured += 1;
    }
  }
#else
  snprintf(rows[0], sizeof rows[0], "0/1/1");
  captured = 1;
#endif
  if (mismatched || captured < 1) {
    printf("FAIL omp_capture_affinity_team %d %d %s\n", mismatched, captured, rows[0]);
    return 1;
  }
  printf("ok omp_capture_affinity_team %.2s\n", rows[0]);
  return 0;
}
