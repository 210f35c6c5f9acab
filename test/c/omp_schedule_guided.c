// schedule(guided) and schedule(guided, chunk), combined with a reduction
// and with a decreasing amount of work per iteration.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 6000;
  int fails = 0;
  double *y = (double *)malloc(n * sizeof(double));
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = 0; k < (n - i) / 100; k++)
      s += 1.0;
    y[i] = s;
  }
  long total = 0;
#pragma omp parallel for schedule(guided, 8) reduction(+ : total)
  for (int i = 0; i < n; i++)
    total += (long)y[i];
  long expected = 0;
  for (int i = 0; i < n; i++)
    expected += (n - i) / 100;
  if (total != expected) fails++;
  for (int i = 0; i < n; i++)
    if (y[i] != (double)((n - i) / 100))
      fails++;
  free(y);
  if (fails) {
    printf("FAIL omp_schedule_guided %d\n", fails);
    return 1;
  }
  printf("ok omp_schedule_guided %ld\n", total);
  return 0;
}
