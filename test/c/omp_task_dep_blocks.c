// Producer / consumer tasks over the blocks of two arrays: for every block a
// producer fills a[block], a second task reads that block and the first
// element of the next one and writes b[block], and a third sums b[block]
// into its own slot.  Each task names its block by the block's first element
// (depend(out: a[k * B]), depend(in: a[k * B])), so only the dependences
// order producer before consumers.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int B = 128;
  int nb = 24;
  int n = B * nb;
  int fails = 0;
  long *a = (long *)malloc((n + 1) * sizeof(long));
  long *b = (long *)malloc(n * sizeof(long));
  long *part = (long *)malloc(nb * sizeof(long));
  for (int i = 0; i <= n; i++)
    a[i] = -1;
  for (int i = 0; i < n; i++)
    b[i] = -1;
  a[n] = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      /* consumers of block k also read a[(k + 1) * B]: create the
         producers from the last block down so a consumer's second
         dependence refers to a producer created before it */
      for (int k = nb - 1; k >= 0; k--) {
#pragma omp task depend(out: a[k * B])
        {
          for (int i = 0; i < B; i++)
            a[k * B + i] = (long)(k * B + i) * 3 + 1;
        }
#pragma omp task depend(in: a[k * B], a[(k + 1) * B]) depend(out: b[k * B])
        {
          long next = a[(k + 1) * B];
          for (int i = 0; i < B; i++)
            b[k * B + i] = a[k * B + i] * 2 + next;
        }
#pragma omp task depend(in: b[k * B])
        {
          long s = 0;
          for (int i = 0; i < B; i++)
            s += b[k * B + i];
          part[k] = s;
        }
      }
    }
  }
  long total = 0;
  for (int k = 0; k < nb; k++) {
    long next = (k + 1 < nb) ? (long)((k + 1) * B) * 3 + 1 : 0;
    long s = 0;
    for (int i = 0; i < B; i++) {
      long v = ((long)(k * B + i) * 3 + 1) * 2 + next;
      if (b[k * B + i] != v) fails++;
      s += v;
    }
    if (part[k] != s) fails++;
    total += part[k];
  }
  free(a);
  free(b);
  free(part);
  if (fails) {
    printf("FAIL omp_task_dep_blocks %d\n", fails);
    return 1;
  }
  printf("ok omp_task_dep_blocks %ld\n", total);
  return 0;
}
