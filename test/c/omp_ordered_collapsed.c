// An ordered region in the body of a collapsed nest: the ordered parts run in the nest's
// order (i outer, j inner) whatever thread runs each iteration. The part before the region
// computes a value per iteration that the region uses; the inner loop starts at 1 and steps
// by 2; a three-deep nest appends to a log through a shared cursor.
#include <stdio.h>

int main(void) {
  int n = 6, m = 9;
  long trace = 0;
  int order[64], pos = 0;
#pragma omp parallel for collapse(2) ordered schedule(dynamic, 2)
  for (int i = 0; i < n; i++)
    for (int j = 1; j < m; j += 2) {
      long w = (long)i * 10 + j;
#pragma omp ordered
      {
        trace = trace * 7 % 1000003 + w;
        order[pos++] = i * m + j;
      }
    }
  int sorted = 1;
  for (int k = 1; k < pos; k++)
    sorted &= order[k - 1] < order[k];

  int log[2 * 3 * 4], next = 0;
#pragma omp parallel for collapse(3) ordered
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 0; c < 4; c++) {
#pragma omp ordered
        log[next++] = a * 100 + b * 10 + c;
      }
  long code = 0;
  for (int k = 0; k < next; k++)
    code = code * 3 % 1000003 + log[k];

  long expect = 0, expect_code = 0;
  for (int i = 0; i < n; i++)
    for (int j = 1; j < m; j += 2)
      expect = expect * 7 % 1000003 + (long)i * 10 + j;
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 0; c < 4; c++)
        expect_code = expect_code * 3 % 1000003 + a * 100 + b * 10 + c;
  if (!sorted || pos != n * 4 || trace != expect || next != 24 || code != expect_code) {
    printf("FAIL omp_ordered_collapsed %d %d %ld %ld %d %ld\n", sorted, pos, trace, expect, next,
           code);
    return 1;
  }
  printf("ok omp_ordered_collapsed %ld %ld\n", trace, code);
  return 0;
}
