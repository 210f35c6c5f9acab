// depend(out / inout / in) on one shared scalar: a writer task, then rounds of
// a read-modify-write task followed by two reader tasks that copy the value
// they see into their own slots.  The dependences fix the order of the
// writes and of each read relative to them, so every copied value is known.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int rounds = 10;
  int fails = 0;
  long x = -5;
  long *seen = (long *)malloc(2 * rounds * sizeof(long));
  for (int i = 0; i < 2 * rounds; i++)
    seen[i] = -1;
#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp task depend(out: x)
      x = 1;
      for (int r = 0; r < rounds; r++) {
#pragma omp task depend(inout: x)
        x = x * 3 + r;
#pragma omp task depend(in: x)
        seen[2 * r] = x;
#pragma omp task depend(in: x)
        {
          seen[2 * r + 1] = x + 100;
        }
      }
#pragma omp taskwait
    }
  }
  long expect = 1;
  long total = 0;
  for (int r = 0; r < rounds; r++) {
    expect = expect * 3 + r;
    if (seen[2 * r] != expect) fails++;
    if (seen[2 * r + 1] != expect + 100) fails++;
    total += seen[2 * r] + seen[2 * r + 1];
  }
  if (x != expect) fails++;
  free(seen);
  if (fails) {
    printf("FAIL omp_task_dep_chain %d %ld\n", fails, x);
    return 1;
  }
  printf("ok omp_task_dep_chain %ld %ld\n", x, total);
  return 0;
}
