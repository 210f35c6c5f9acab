// num_threads(...) clause: #pragma omp parallel for num_threads(2) and
// #pragma omp parallel num_threads(3).  Inside, omp_get_num_threads() must
// be at least 1 and at most the number requested (checked, not printed;
// API behind the guard).  The loop results are compared with closed forms.
#include <stdio.h>
#include <stdlib.h>

#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_num_threads(void) { return 1; }
#endif

int main(void) {
  int n = 20000;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  int bad = 0;
#pragma omp parallel for num_threads(2) reduction(+ : bad)
  for (int i = 0; i < n; i++) {
    int nt = omp_get_num_threads();
    if (nt < 1 || nt > 2) bad++;
    a[i] = i % 9;
  }
  int team = 0;
  long s = 0;
#pragma omp parallel num_threads(3)
  {
    int nt = omp_get_num_threads();
#pragma omp single
    team = nt;
#pragma omp for reduction(+ : s)
    for (int i = 0; i < n; i++)
      s += a[i];
  }
  if (bad != 0) fails++;
  if (team < 1 || team > 3) fails++;
  long e = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != i % 9) fails++;
    e += i % 9;
  }
  if (s != e) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_num_threads %d %d %d %ld %ld\n", fails, bad, team, s, e);
    return 1;
  }
  printf("ok omp_num_threads %d %ld\n", bad, s);
  return 0;
}
