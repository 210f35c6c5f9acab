// The combined #pragma omp parallel sections construct with two sections,
// each computing an independent sum into its own shared scalar (sum of
// i % 17 as long, sum of 0.25 * i as double).  Compared with closed forms
// / a sequential loop after the construct.
#include <stdio.h>

int main(void) {
  int n = 40000;
  int fails = 0;
  long s1 = 0;
  double s2 = 0.0;
#pragma omp parallel sections
  {
#pragma omp section
    {
      for (int i = 0; i < n; i++)
        s1 += i % 17;
    }
#pragma omp section
    {
      for (int i = 0; i < n; i++)
        s2 += 0.25 * i;
    }
  }
  long e1 = 0;
  for (int i = 0; i < n; i++)
    e1 += i % 17;
  double e2 = 0.25 * ((double)n * (n - 1) / 2.0);
  if (s1 != e1) fails++;
  if (s2 != e2) fails++;
  if (fails) {
    printf("FAIL omp_parallel_sections %ld %ld %f %f\n", s1, e1, s2, e2);
    return 1;
  }
  printf("ok omp_parallel_sections %ld %.2f\n", s1, s2);
  return 0;
}
