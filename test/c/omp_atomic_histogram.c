// #pragma omp atomic on an array element: hist[a[i] % 16] += 1 (and a
// weighted histogram with += a[i]) in a parallel for, where many iterations
// hit the same bin.  Compared with a histogram built sequentially.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 50000;
  int fails = 0;
  int *a = (int *)malloc(n * sizeof(int));
  unsigned int s = 12345u;
  for (int i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    a[i] = (int)((s >> 8) % 1000u);
  }
  int hist[16];
  long wsum[16];
  int ref[16];
  long wref[16];
  for (int b = 0; b < 16; b++) {
    hist[b] = 0;
    wsum[b] = 0;
    ref[b] = 0;
    wref[b] = 0;
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    hist[a[i] % 16] += 1;
#pragma omp atomic
    wsum[a[i] % 16] += a[i];
  }
  for (int i = 0; i < n; i++) {
    ref[a[i] % 16]++;
    wref[a[i] % 16] += a[i];
  }
  int total = 0;
  long wtotal = 0;
  for (int b = 0; b < 16; b++) {
    if (hist[b] != ref[b] || wsum[b] != wref[b]) fails++;
    total += hist[b];
    wtotal += wsum[b];
  }
  if (total != n) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_atomic_histogram %d %d\n", fails, total);
    return 1;
  }
  printf("ok omp_atomic_histogram %d %d %d %ld\n", total, hist[0], hist[15], wtotal);
  return 0;
}
