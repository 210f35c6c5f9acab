// Task clauses that change scheduling but not results: final(1),
// final(variable), priority(k), untied and mergeable, alone and combined
// with depend and firstprivate, plus #pragma omp taskyield in the creating
// thread and inside a task.  Every task writes its own slot, so the result
// does not depend on which clauses the runtime honours.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 64;
  int fails = 0;
  long *out = (long *)malloc(6 * n * sizeof(long));
  long chain = 0;
  for (int i = 0; i < 6 * n; i++)
    out[i] = -1;
#pragma omp parallel
  {
#pragma omp single
    {
      for (int k = 0; k < n; k++) {
        int last = (k == n - 1);
#pragma omp task final(1)
        out[k] = k + 1;
#pragma omp task final(last) firstprivate(last)
        out[n + k] = k * 2 + last;
#pragma omp task priority(3)
        out[2 * n + k] = k * 3;
#pragma omp task untied
        {
          out[3 * n + k] = k * 4;
#pragma omp taskyield
          out[3 * n + k] += 1;
        }
#pragma omp task mergeable
        out[4 * n + k] = k * 5;
#pragma omp task untied mergeable priority(1) depend(inout: chain)
        {
          chain = chain * 2 % 1000003 + k;
          out[5 * n + k] = chain;
        }
        if (k % 16 == 15) {
#pragma omp taskyield
        }
      }
#pragma omp taskwait
    }
  }
  long total = 0;
  long c = 0;
  for (int k = 0; k < n; k++) {
    c = c * 2 % 1000003 + k;
    if (out[k] != k + 1) fails++;
    if (out[n + k] != k * 2 + (k == n - 1)) fails++;
    if (out[2 * n + k] != k * 3) fails++;
    if (out[3 * n + k] != k * 4 + 1) fails++;
    if (out[4 * n + k] != k * 5) fails++;
    if (out[5 * n + k] != c) fails++;
  }
  for (int i = 0; i < 6 * n; i++)
    total += out[i];
  if (chain != c) fails++;
  free(out);
  if (fails) {
    printf("FAIL omp_task_clauses %d\n", fails);
    return 1;
  }
  printf("ok omp_task_clauses %ld %ld\n", total, chain);
  return 0;
}
