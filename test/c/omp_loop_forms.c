// parallel for over every canonical loop form OpenMP accepts: <, <=, >, >=
// comparisons with ++, --, += k and -= k steps and non-zero bounds; each
// iteration marks the index it visited.
#include <stdio.h>
#include <stdlib.h>

#define N 1000

int main(void) {
  int fails = 0;
  int *hit = (int *)calloc(N + 1, sizeof(int));
#pragma omp parallel for
  for (int i = 0; i < N; i++) /* all: +1 */
    hit[i] += 1;
#pragma omp parallel for
  for (int i = 10; i <= 20; i++) /* 10..20: +10 */
    hit[i] += 10;
#pragma omp parallel for
  for (int i = N - 1; i > 900; i--) /* 901..999: +100 */
    hit[i] += 100;
#pragma omp parallel for
  for (int i = 500; i >= 0; i -= 5) /* multiples of 5 up to 500: +1000 */
    hit[i] += 1000;
#pragma omp parallel for
  for (int i = 3; i < N; i += 7) /* 3, 10, 17, ...: +10000 */
    hit[i] += 10000;
  long s = 0;
  for (int i = 0; i <= N; i++) {
    int e = (i < N) ? 1 : 0;
    if (i >= 10 && i <= 20) e += 10;
    if (i > 900 && i <= N - 1) e += 100;
    if (i <= 500 && i % 5 == 0) e += 1000;
    if (i >= 3 && i < N && (i - 3) % 7 == 0) e += 10000;
    if (hit[i] != e)
      fails++;
    s += hit[i];
  }
  free(hit);
  if (fails) {
    printf("FAIL omp_loop_forms %d\n", fails);
    return 1;
  }
  printf("ok omp_loop_forms %ld\n", s);
  return 0;
}
