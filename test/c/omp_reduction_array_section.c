// Array-section reduction (OpenMP 4.5): reduction(+ : hist[:8]) on a
// fixed-size int array and reduction(+ : w[0:4]) on a double array, in a
// parallel for where many iterations add to the same element.  Each thread
// gets a private zeroed copy of the section; the combined result is
// compared with a sequential histogram.
#include <stdio.h>

int main(void) {
  int n = 50000;
  int fails = 0;
  int hist[8];
  double w[4];
  int ref[8];
  double wref[4];
  for (int b = 0; b < 8; b++) {
    hist[b] = 0;
    ref[b] = 0;
  }
  for (int b = 0; b < 4; b++) {
    w[b] = 0.0;
    wref[b] = 0.0;
  }
#pragma omp parallel for reduction(+ : hist[:8]) reduction(+ : w[0:4])
  for (int i = 0; i < n; i++) {
    int v = (i * 37) % 101;
    hist[v % 8] += 1;
    w[v % 4] += 0.5 * (v % 10);
  }
  for (int i = 0; i < n; i++) {
    int v = (i * 37) % 101;
    ref[v % 8] += 1;
    wref[v % 4] += 0.5 * (v % 10);
  }
  int total = 0;
  double wt = 0.0;
  for (int b = 0; b < 8; b++) {
    if (hist[b] != ref[b]) fails++;
    total += hist[b];
  }
  for (int b = 0; b < 4; b++) {
    if (w[b] != wref[b]) fails++;
    wt += w[b];
  }
  if (total != n) fails++;
  if (fails) {
    printf("FAIL omp_reduction_array_section %d %d\n", fails, total);
    return 1;
  }
  printf("ok omp_reduction_array_section %d %d %d %.1f\n", total, hist[0],
         hist[7], wt);
  return 0;
}
