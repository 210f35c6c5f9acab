// N tasks that print nothing and only increment a shared counter under
// depend(inout: counter), interleaved with N tasks that add their number to
// a shared sum under depend(inout: sum) and, with depend(in: counter),
// record the counter value they see.  The dependences serialise the
// updates, so the counter ends at N, the sum at N (N - 1) / 2, and the
// recording task k (from 0) sees k + 1.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int N = 300;
  int fails = 0;
  int counter = 0;
  long sum = 0;
  int *seen = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    seen[i] = -1;
#pragma omp parallel
  {
#pragma omp single
    {
      for (int k = 0; k < N; k++) {
#pragma omp task depend(inout: counter)
        counter++;
#pragma omp task depend(inout: sum) depend(in: counter)
        {
          sum += k;
          seen[k] = counter;
        }
      }
    }
  }
  int bad = 0;
  for (int k = 0; k < N; k++)
    if (seen[k] != k + 1)
      bad++;
  if (counter != N) fails++;
  if (sum != (long)N * (N - 1) / 2) fails++;
  if (bad) fails++;
  free(seen);
  if (fails) {
    printf("FAIL omp_task_counter %d %d %ld %d\n", fails, counter, sum, bad);
    return 1;
  }
  printf("ok omp_task_counter %d %ld\n", counter, sum);
  return 0;
}
