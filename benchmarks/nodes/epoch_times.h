/* The timing summary both node benchmarks print: "name: value" lines that run.py parses.
   t[0..reps) are per-epoch times in seconds; they are sorted in place (an insertion sort:
   the front end has no function pointers for qsort). */
#ifndef EPOCH_TIMES_H
#define EPOCH_TIMES_H

#include <stdio.h>

static void print_epoch_times(double *t, int reps) {
  double total = 0.0;
  for (int r = 0; r < reps; r++) {
    total += t[r];
    double v = t[r];
    int k = r - 1;
    while (k >= 0 && t[k] > v) {
      t[k + 1] = t[k];
      k = k - 1;
    }
    t[k + 1] = v;
  }
  printf("epoch_median_s: %.9f\n", t[reps / 2]);
  printf("epoch_mean_s: %.9f\n", total / reps);
  printf("epoch_min_s: %.9f\n", t[0]);
  printf("epoch_p90_s: %.9f\n", t[(reps * 9) / 10]);
}

#endif
