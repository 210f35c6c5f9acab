// A reduction variable the loop never touches next to a lastprivate one, over a loop of a
// single iteration that fills a row of a global 2-D array: the reduction keeps its initial
// value, the lastprivate gets the last iteration's, the row is written.
#include <stdio.h>

double e[4][3];

int main(void) {
  long s = 0;
  int last = 0;
#pragma omp parallel for reduction(+ : s) lastprivate(last)
  for (int i = 2; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      e[i][j] = j;
    last = i;
  }
  if (s != 0 || last != 2 || e[2][2] != 2.0 || e[1][2] != 0.0) {
    printf("FAIL omp_reduction_lastprivate_idle %ld %d %.1f\n", s, last, e[2][2]);
    return 1;
  }
  printf("ok omp_reduction_lastprivate_idle %ld %d %.1f\n", s, last, e[2][2]);
  return 0;
}
