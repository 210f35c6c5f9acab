/* forkjoin.c's epochs as OpenMP parallel loops (one iteration per thread, static schedule):
   the reference for the fork-join overhead of the runtime. Built with -fopenmp. */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"

#define EPOCHS 4000

static void measure(const char *name, double work_us) {
  static double samples[EPOCHS];
  int threads = omp_get_max_threads();
  for (int i = 0; i < EPOCHS; i++) {
    double t0 = now_us();
#pragma omp parallel for schedule(static)
    for (int w = 0; w < threads; w++) {
      double until = now_us() + work_us;
      while (now_us() < until)
        ;
    }
    samples[i] = now_us() - t0;
  }
  qsort(samples, EPOCHS, sizeof *samples, by_value);
  printf("%s: %.3f\n", name, samples[EPOCHS / 2]);
}

int main(void) {
#pragma omp parallel
  { (void)0; }
  measure("omp.forkjoin.empty.us", 0);
  measure("omp.forkjoin.work20.us", 20);
  return 0;
}
