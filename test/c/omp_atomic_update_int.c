// #pragma omp atomic on an int counter shared by all iterations of a
// parallel for: one form `count++` (one per iteration, expected n) and one
// form `total += k` with k = i % 5 (expected from a sequential loop).  Any
// lost update makes the totals smaller than expected.
#include <stdio.h>

int main(void) {
  int n = 50000;
  int fails = 0;
  int count = 0;
  int total = 0;
  int odd = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int k = i % 5;
#pragma omp atomic
    count++;
#pragma omp atomic
    total += k;
    if (i % 2 == 1) {
#pragma omp atomic
      odd += 1;
    }
  }
  int texp = 0;
  for (int i = 0; i < n; i++)
    texp += i % 5;
  if (count != n) fails++;
  if (total != texp) fails++;
  if (odd != n / 2) fails++;
  if (fails) {
    printf("FAIL omp_atomic_update_int %d %d %d %d\n", count, total, texp, odd);
    return 1;
  }
  printf("ok omp_atomic_update_int %d %d %d\n", count, total, odd);
  return 0;
}
