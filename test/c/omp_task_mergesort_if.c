// Recursive merge sort over the caller's array: each call sorts its two halves in
// tasks (the array is the function's parameter, used in place), waits for them and
// merges. `if(hi - lo > CUTOFF)` makes the small calls undeferred: the creator
// continues only once such a task has finished. The result is checked for order and
// for the sum of its keys.
#include <stdio.h>
#include <stdlib.h>

#define CUTOFF 256

static void merge(int *a, int *tmp, int lo, int mid, int hi) {
  int i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    if (a[i] <= a[j]) {
      tmp[k] = a[i];
      i++;
    } else {
      tmp[k] = a[j];
      j++;
    }
    k++;
  }
  while (i < mid) {
    tmp[k] = a[i];
    i++;
    k++;
  }
  while (j < hi) {
    tmp[k] = a[j];
    j++;
    k++;
  }
  for (k = lo; k < hi; k++)
    a[k] = tmp[k];
}

static void sort(int *a, int *tmp, int lo, int hi) {
  if (hi - lo < 16) {
    for (int i = lo + 1; i < hi; i++) {
      int v = a[i];
      int j = i - 1;
      while (j >= lo && a[j] > v) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = v;
    }
    return;
  }
  int mid = lo + (hi - lo) / 2;
#pragma omp task if(hi - lo > CUTOFF)
  sort(a, tmp, lo, mid);
#pragma omp task if(hi - lo > CUTOFF)
  sort(a, tmp, mid, hi);
#pragma omp taskwait
  merge(a, tmp, lo, mid, hi);
}

int main(void) {
  int n = 12000;
  int *a = (int *)malloc(n * sizeof(int));
  int *tmp = (int *)malloc(n * sizeof(int));
  long sum = 0;
  for (int i = 0; i < n; i++) {
    a[i] = (i * 7919 + 31) % 10007;
    sum += a[i];
  }
#pragma omp parallel
  {
#pragma omp single
    sort(a, tmp, 0, n);
  }
  long after = 0;
  int unsorted = 0;
  for (int i = 0; i < n; i++) {
    after += a[i];
    if (i > 0 && a[i - 1] > a[i])
      unsorted++;
  }
  int first = a[0];
  int last = a[n - 1];
  free(a);
  free(tmp);
  if (unsorted || after != sum) {
    printf("FAIL omp_task_mergesort_if %d %ld %ld\n", unsorted, after, sum);
    return 1;
  }
  printf("ok omp_task_mergesort_if %d %d %ld\n", first, last, sum);
  return 0;
}
