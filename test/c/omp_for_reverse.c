// #pragma omp parallel for over a decreasing loop,
// for (i = n - 1; i >= 0; i--), and one with a step of -3 ending at a
// bound > 0 (i > 2).  Every iteration writes its own element; the set of
// iterations visited and the values are compared with closed forms.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 10000;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  int *hit = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    hit[i] = 0;
  int i;
#pragma omp parallel for
  for (i = n - 1; i >= 0; i--)
    a[i] = (long)(n - 1 - i) * 2;
#pragma omp parallel for
  for (int j = n - 1; j > 2; j -= 3)
    hit[j] = j % 5 + 1;
  long s = 0;
  int hits = 0;
  for (int j = 0; j < n; j++) {
    if (a[j] != (long)(n - 1 - j) * 2) fails++;
    s += a[j];
    int want = (j > 2 && (n - 1 - j) % 3 == 0) ? j % 5 + 1 : 0;
    if (hit[j] != want) fails++;
    if (hit[j] != 0) hits++;
  }
  /* j = n - 1, n - 4, ..., 3 (n - 1 = 9999 is a multiple of 3) */
  if (hits != (n - 1 - 3) / 3 + 1) fails++;
  if (s != (long)n * (n - 1)) fails++;
  free(a);
  free(hit);
  if (fails) {
    printf("FAIL omp_for_reverse %d %ld %d\n", fails, s, hits);
    return 1;
  }
  printf("ok omp_for_reverse %ld %d\n", s, hits);
  return 0;
}
