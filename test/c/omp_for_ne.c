// Canonical loop forms on #pragma omp parallel for beyond `<`:
// for (i = 0; i != n; i++) (OpenMP 5.0 allows !=) and
// for (i = 0; i <= n - 1; i += 3) (inclusive bound, step 3).  Each
// iteration writes its own element; compared with closed forms.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 10000;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  int *b = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    b[i] = -1;
#pragma omp parallel for
  for (int i = 0; i != n; i++)
    a[i] = 5 * i + 2;
#pragma omp parallel for
  for (int i = 0; i <= n - 1; i += 3)
    b[i] = i / 3;
  long sa = 0;
  int cnt = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != 5 * i + 2) fails++;
    sa += a[i];
    if (i % 3 == 0) {
      if (b[i] != i / 3) fails++;
      cnt++;
    } else if (b[i] != -1) {
      fails++;
    }
  }
  if (cnt != (n - 1) / 3 + 1) fails++;
  if (sa != 5L * n * (n - 1) / 2 + 2L * n) fails++;
  int blast = b[n - 1];
  free(a);
  free(b);
  if (fails) {
    printf("FAIL omp_for_ne %d %ld %d\n", fails, sa, cnt);
    return 1;
  }
  printf("ok omp_for_ne %ld %d %d\n", sa, cnt, blast);
  return 0;
}
