// Tasks created in a helper join a task reduction through a pointer: `in_reduction(+:
// total[0])` where the caller passes the address of a scalar, and `in_reduction(max:
// peaks[2])` of an array the caller declares with `task_reduction(max: peaks[2:1])`.
// Each task works on an element of its own and combines it when it is done.
#include <stdio.h>

static void add_part(long *total, int v) {
#pragma omp task in_reduction(+: total[0])
  total[0] += (long)v * v;
}

static void raise_peak(int *peaks, int v) {
#pragma omp task in_reduction(max: peaks[2]) firstprivate(v)
  {
    int x = (v * 37) % 101;
    if (x > peaks[2])
      peaks[2] = x;
  }
}

int main(void) {
  long total = 3;
  int peaks[4] = {-1, -1, 5, -1};
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+: total) task_reduction(max: peaks[2:1])
    {
      for (int i = 0; i < 40; i++) {
        add_part(&total, i);
        raise_peak(peaks, i);
      }
    }
  }
  long expect = 3;
  int peak = 5;
  for (int i = 0; i < 40; i++) {
    expect += (long)i * i;
    if ((i * 37) % 101 > peak)
      peak = (i * 37) % 101;
  }
  if (total != expect || peaks[2] != peak || peaks[0] != -1 || peaks[3] != -1) {
    printf("FAIL omp_in_reduction_element %ld %ld %d %d\n", total, expect, peaks[2], peak);
    return 1;
  }
  printf("ok omp_in_reduction_element %ld %d\n", total, peaks[2]);
  return 0;
}
