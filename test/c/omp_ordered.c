// #pragma omp parallel for ordered with an #pragma omp ordered block that
// appends i to out[k++] through a shared position k: the ordered blocks run
// in iteration order, so out[j] == j for every j.  The heavier work outside
// the ordered block writes disjoint elements w[i] (checked too).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 4000;
  int fails = 0;
  int *out = (int *)malloc(n * sizeof(int));
  long *w = (long *)malloc(n * sizeof(long));
  int k = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++) {
    long acc = 0;
    for (int j = 0; j < 50; j++)
      acc += (long)(i + j) % 7;
    w[i] = acc;
#pragma omp ordered
    {
      out[k] = i;
      k++;
    }
  }
  if (k != n) fails++;
  for (int j = 0; j < n; j++)
    if (out[j] != j) fails++;
  long sw = 0;
  for (int i = 0; i < n; i++) {
    long acc = 0;
    for (int j = 0; j < 50; j++)
      acc += (long)(i + j) % 7;
    if (w[i] != acc) fails++;
    sw += w[i];
  }
  free(out);
  free(w);
  if (fails) {
    printf("FAIL omp_ordered %d %d\n", fails, k);
    return 1;
  }
  printf("ok omp_ordered %d %ld\n", k, sw);
  return 0;
}
