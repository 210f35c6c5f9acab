// Tasks with depend clauses created in a plain function called (twice)
// from a single block: the function allocates its own arrays, creates per
// block a producer, a transformer and a summing task ordered by depend on
// the block's first element, waits with taskwait, and returns the total.
// Only scalars are passed in; the arrays are locals of the function.
#include <stdio.h>
#include <stdlib.h>

static long pipeline(int nb, int B, int seed, long mul) {
  int n = nb * B;
  long *src = (long *)malloc(n * sizeof(long));
  long *dst = (long *)malloc(n * sizeof(long));
  long *part = (long *)malloc(nb * sizeof(long));
  for (int k = 0; k < nb; k++) {
#pragma omp task depend(out: src[k * B])
    {
      for (int i = k * B; i < k * B + B; i++)
        src[i] = (i + seed) % 31;
    }
  }
  for (int k = 0; k < nb; k++) {
#pragma omp task depend(in: src[k * B]) depend(out: dst[k * B])
    {
      for (int i = k * B; i < k * B + B; i++)
        dst[i] = src[i] * mul + 1;
    }
#pragma omp task depend(in: dst[k * B])
    {
      long s = 0;
      for (int i = k * B; i < k * B + B; i++)
        s += dst[i];
      part[k] = s;
    }
  }
#pragma omp taskwait
  long total = 0;
  for (int k = 0; k < nb; k++)
    total += part[k];
  free(src);
  free(dst);
  free(part);
  return total;
}

int main(void) {
  int B = 150;
  int nb = 10;
  int fails = 0;
  long first = -1;
  long second = -1;
#pragma omp parallel
  {
#pragma omp single
    {
      first = pipeline(nb, B, 5, 4);
      second = pipeline(nb + 2, B / 2, 9, 3);
    }
  }
  long e1 = 0;
  for (int i = 0; i < nb * B; i++)
    e1 += ((i + 5) % 31) * 4 + 1;
  long e2 = 0;
  for (int i = 0; i < (nb + 2) * (B / 2); i++)
    e2 += ((i + 9) % 31) * 3 + 1;
  if (first != e1) fails++;
  if (second != e2) fails++;
  if (fails) {
    printf("FAIL omp_task_function_deps %ld %ld %ld %ld\n", first, e1, second,
           e2);
    return 1;
  }
  printf("ok omp_task_function_deps %ld %ld\n", first, second);
  return 0;
}
