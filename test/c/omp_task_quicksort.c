// Recursive quicksort with tasks on a global array: each call partitions
// [lo, hi) in place and spawns one task per side without waiting for them
// (the two ranges are disjoint).  Each half of the array is sorted inside a
// taskgroup, once with the top-level call made directly in the taskgroup
// and once from a task created in it; the taskgroup waits for every
// descendant task, so the code after it finds that half sorted.
// Small ranges are sorted by insertion sort.
#include <stdio.h>
#include <stdlib.h>

static int *keys;

static void insertion_sort(int lo, int hi) {
  for (int i = lo + 1; i < hi; i++) {
    int v = keys[i];
    int j = i - 1;
    while (j >= lo && keys[j] > v) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = v;
  }
}

static void qsort_tasks(int lo, int hi) {
  if (hi - lo <= 32) {
    insertion_sort(lo, hi);
    return;
  }
  int mid = lo + (hi - lo) / 2;
  int pivot = keys[mid];
  keys[mid] = keys[hi - 1];
  keys[hi - 1] = pivot;
  int store = lo;
  for (int i = lo; i < hi - 1; i++) {
    if (keys[i] < pivot) {
      int t = keys[i];
      keys[i] = keys[store];
      keys[store] = t;
      store++;
    }
  }
  keys[hi - 1] = keys[store];
  keys[store] = pivot;
#pragma omp task
  qsort_tasks(lo, store);
#pragma omp task
  qsort_tasks(store + 1, hi);
}

int main(void) {
  int n = 20000;
  int fails = 0;
  keys = (int *)malloc(n * sizeof(int));
  long sum = 0;
  int early_unsorted = 0;
  int h = n / 2;
  for (int i = 0; i < n; i++) {
    keys[i] = (int)(((long)i * 7919 + 13) % 30011);
    sum += keys[i];
  }
#pragma omp parallel
  {
#pragma omp single
    {
      /* first half: the call itself creates the tasks of the group */
#pragma omp taskgroup
      {
        qsort_tasks(0, h);
      }
      for (int i = 1; i < h; i++)
        if (keys[i - 1] > keys[i])
          early_unsorted++;
      /* second half: one task in the group, the rest are its descendants */
#pragma omp taskgroup
      {
#pragma omp task
        qsort_tasks(h, n);
      }
      for (int i = h + 1; i < n; i++)
        if (keys[i - 1] > keys[i])
          early_unsorted++;
    }
  }
  long after = 0;
  int unsorted = 0;
  for (int i = 0; i < n; i++) {
    after += keys[i];
    if (i > 0 && i != h && keys[i - 1] > keys[i])
      unsorted++;
  }
  if (unsorted || early_unsorted || after != sum) fails++;
  int first = keys[0];
  int mid_lo = keys[h - 1];
  int mid_hi = keys[h];
  int last = keys[n - 1];
  free(keys);
  if (fails) {
    printf("FAIL omp_task_quicksort %d %ld %ld\n", unsorted, after, sum);
    return 1;
  }
  printf("ok omp_task_quicksort %d %d %d %d %ld\n", first, mid_lo, mid_hi, last,
         after);
  return 0;
}
