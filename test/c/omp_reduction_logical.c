// Logical reductions on a parallel for: reduction(&& : all) and
// reduction(|| : any), each on a test that holds everywhere and on one that
// holds nowhere / at a single index, so both true and false results are
// exercised.  Expected values come from sequential loops.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 30000;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    a[i] = (i * 13) % 1000 + 1; /* 1 .. 1000, never 0 */
  a[n / 3] = 2000;
  int all_pos = 1, all_small = 1;
  int any_big = 0, any_zero = 0;
#pragma omp parallel for reduction(&& : all_pos, all_small)
  for (int i = 0; i < n; i++) {
    all_pos = all_pos && (a[i] > 0);
    all_small = all_small && (a[i] <= 1000);
  }
#pragma omp parallel for reduction(|| : any_big, any_zero)
  for (int i = 0; i < n; i++) {
    any_big = any_big || (a[i] > 1000);
    any_zero = any_zero || (a[i] == 0);
  }
  int e_pos = 1, e_small = 1, e_big = 0, e_zero = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] <= 0) e_pos = 0;
    if (a[i] > 1000) e_small = 0;
    if (a[i] > 1000) e_big = 1;
    if (a[i] == 0) e_zero = 1;
  }
  if ((all_pos != 0) != e_pos || (all_small != 0) != e_small) fails++;
  if ((any_big != 0) != e_big || (any_zero != 0) != e_zero) fails++;
  if (e_pos != 1 || e_small != 0 || e_big != 1 || e_zero != 0) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_reduction_logical %d %d %d %d\n", all_pos, all_small,
           any_big, any_zero);
    return 1;
  }
  printf("ok omp_reduction_logical %d %d %d %d\n", all_pos != 0,
         all_small != 0, any_big != 0, any_zero != 0);
  return 0;
}
