// depend clauses on array sections a[lo:len]: writer tasks each own one
// block (depend(out: a[k * B:B])); a smoothing task per block reads its
// block and the two neighbouring blocks (depend(in:) on the same sections
// the writers named, clipped at the ends, since OpenMP wants dependent
// sections identical or disjoint) and writes b[k * B:B]; a summing task per
// block reads b[k * B:B] and writes part[k:1]; tasks with
// depend(inout: c[0:nb]) then fill c one element each, in turn, and a last
// task reads c[0:nb].
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int B = 64;
  int nb = 16;
  int n = B * nb;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  long *b = (long *)malloc(n * sizeof(long));
  long *part = (long *)malloc(nb * sizeof(long));
  long *c = (long *)malloc(nb * sizeof(long));
  long total = -1;
  for (int k = 0; k < nb; k++) {
    part[k] = -1;
    c[k] = -1;
  }
  for (int i = 0; i < n; i++) {
    a[i] = -1;
    b[i] = -1;
  }
#pragma omp parallel
  {
#pragma omp single
    {
      for (int k = 0; k < nb; k++) {
#pragma omp task depend(out: a[k * B:B])
        {
          for (int i = k * B; i < k * B + B; i++)
            a[i] = (i * 5) % 23;
        }
      }
      for (int k = 0; k < nb; k++) {
        int kl = (k > 0) ? k - 1 : k;
        int kr = (k < nb - 1) ? k + 1 : k;
#pragma omp task depend(in: a[kl * B:B], a[k * B:B], a[kr * B:B]) depend(out: b[k * B:B])
        {
          for (int i = k * B; i < k * B + B; i++) {
            long l = (i > 0) ? a[i - 1] : 0;
            long r = (i + 1 < n) ? a[i + 1] : 0;
            b[i] = l + 2 * a[i] + r;
          }
        }
      }
#pragma omp task depend(out: c[0:nb])
      {
        for (int k = 0; k < nb; k++)
          c[k] = 0;
      }
      for (int k = 0; k < nb; k++) {
#pragma omp task depend(in: b[k * B:B]) depend(out: part[k:1])
        {
          long s = 0;
          for (int i = k * B; i < k * B + B; i++)
            s += b[i];
          part[k] = s;
        }
      }
      for (int k = 0; k < nb; k++) {
#pragma omp task depend(in: part[k:1]) depend(inout: c[0:nb])
        c[k] = part[k] + k;
      }
#pragma omp task depend(in: c[0:nb]) shared(total)
      {
        long s = 0;
        for (int k = 0; k < nb; k++)
          s += c[k] - k;
        total = s;
      }
#pragma omp taskwait
    }
  }
  long expect = 0;
  for (int i = 0; i < n; i++) {
    long l = (i > 0) ? ((i - 1) * 5) % 23 : 0;
    long r = (i + 1 < n) ? ((i + 1) * 5) % 23 : 0;
    long v = l + 2 * ((i * 5) % 23) + r;
    if (b[i] != v) fails++;
    expect += v;
  }
  if (total != expect) fails++;
  free(a);
  free(b);
  free(part);
  free(c);
  if (fails) {
    printf("FAIL omp_task_dep_section %d %ld %ld\n", fails, total, expect);
    return 1;
  }
  printf("ok omp_task_dep_section %ld\n", total);
  return 0;
}
