// Recursive divide-and-conquer over an index range: a function splits
// [lo, hi) in two, spawns one task per half whose result goes into a local
// of the caller (shared(left) / shared(right)), waits with taskwait and
// combines.  Once for a sum and once for a maximum; lo, mid and hi are
// firstprivate in the tasks by default.  The data live in a global pointer.
#include <stdio.h>
#include <stdlib.h>

static long *vals;

static long range_sum(int lo, int hi) {
  if (hi - lo <= 100) {
    long s = 0;
    for (int i = lo; i < hi; i++)
      s += vals[i];
    return s;
  }
  int mid = lo + (hi - lo) / 2;
  long left = 0;
  long right = 0;
#pragma omp task shared(left)
  left = range_sum(lo, mid);
#pragma omp task shared(right)
  right = range_sum(mid, hi);
#pragma omp taskwait
  return left + right;
}

static long range_max(int lo, int hi) {
  if (hi - lo <= 100) {
    long m = vals[lo];
    for (int i = lo + 1; i < hi; i++)
      if (vals[i] > m)
        m = vals[i];
    return m;
  }
  int mid = lo + (hi - lo) / 2;
  long left = 0;
  long right = 0;
#pragma omp task shared(left)
  left = range_max(lo, mid);
#pragma omp task shared(right)
  right = range_max(mid, hi);
#pragma omp taskwait
  return left > right ? left : right;
}

int main(void) {
  int n = 10007;
  int fails = 0;
  vals = (long *)malloc(n * sizeof(long));
  for (int i = 0; i < n; i++)
    vals[i] = ((long)i * 7919) % 10009;
  long sum = -1;
  long max = -1;
#pragma omp parallel
  {
#pragma omp single
    {
      sum = range_sum(0, n);
      max = range_max(0, n);
    }
  }
  long s = 0;
  long m = vals[0];
  for (int i = 0; i < n; i++) {
    s += vals[i];
    if (vals[i] > m)
      m = vals[i];
  }
  if (sum != s) fails++;
  if (max != m) fails++;
  free(vals);
  if (fails) {
    printf("FAIL omp_task_range_sum %ld %ld %ld %ld\n", sum, s, max, m);
    return 1;
  }
  printf("ok omp_task_range_sum %ld %ld\n", sum, max);
  return 0;
}
