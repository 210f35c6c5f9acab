// Benchmark idiom: inside each iteration of a parallel for, a pointer
// walks that iteration's own row with p++ in a sequential loop (writes
// *p++ = ..., then reads back with a second walking pointer).  Compared
// with closed forms via subscripts.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 400;
  int m = 100;
  int fails = 0;
  int *data = (int *)malloc(n * m * sizeof(int));
  long *rs = (long *)malloc(n * sizeof(long));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int *p = data + i * m;
    for (int j = 0; j < m; j++)
      *p++ = i + 3 * j;
    const int *q = data + i * m;
    const int *end = q + m;
    long s = 0;
    while (q != end) {
      s += *q;
      q++;
    }
    rs[i] = s;
  }
  long total = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      if (data[i * m + j] != i + 3 * j) fails++;
    /* m i + 3 m (m - 1) / 2 */
    if (rs[i] != (long)m * i + 3L * m * (m - 1) / 2) fails++;
    total += rs[i];
  }
  free(data);
  free(rs);
  if (fails) {
    printf("FAIL idiom_ptr_increment %d\n", fails);
    return 1;
  }
  printf("ok idiom_ptr_increment %ld\n", total);
  return 0;
}
