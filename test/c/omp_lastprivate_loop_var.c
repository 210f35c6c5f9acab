// lastprivate of a loop's own index variable, declared outside the loop: after the
// construct it holds the value sequential execution leaves, the first one that fails the
// loop's test (100 for 0..99, 101 for 3, 10, ..., 94, 0 for a countdown from 10, one step
// past the end for each loop of a collapsed nest), on `parallel for`, `for` in a region,
// `parallel for simd`, `loop`, a collapse(2) nest and a taskloop.  Also an atomic read
// whose target has another type than the object read.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int i, j, k, s, t, q;
  int last = -1;
#pragma omp parallel for lastprivate(i)
  for (i = 0; i < 100; i++)
    ;
  if (i != 100) fails++;
#pragma omp parallel for lastprivate(j, last)
  for (j = 3; j < 100; j += 7)
    last = j;
  if (j != 101 || last != 94) fails++;
#pragma omp parallel
  {
#pragma omp for lastprivate(k)
    for (k = 10; k > 0; k--)
      ;
  }
  if (k != 0) fails++;
#pragma omp parallel for simd lastprivate(s)
  for (s = 0; s < 17; s++)
    ;
  if (s != 17) fails++;
#pragma omp parallel
  {
#pragma omp loop lastprivate(t)
    for (t = 40; t >= 0; t -= 4)
      ;
  }
  if (t != -4) fails++;
#pragma omp parallel for collapse(2) lastprivate(i, j)
  for (i = 0; i < 5; i++)
    for (j = 2; j < 9; j += 3)
      ;
  if (i != 5 || j != 11) fails++;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop lastprivate(q) grainsize(strict: 2)
  for (q = 0; q < 13; q += 2)
    ;
  if (q != 14) fails++;

  long wide = 0;
  int narrow = -1;
#pragma omp parallel
  {
#pragma omp atomic write
    wide = 77;
#pragma omp barrier
#pragma omp atomic read
    narrow = wide;
  }
  if (narrow != 77) fails++;

  if (fails) {
    printf("FAIL omp_lastprivate_loop_var %d: %d %d %d %d %d %d %d %d\n", fails, i, j, k, s, t,
           q, last, narrow);
    return 1;
  }
  printf("ok omp_lastprivate_loop_var %d %d %d %d %d %d\n", i, j, k, s, t, q);
  return 0;
}
