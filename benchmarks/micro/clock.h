/* What the micro-benchmarks share: a microsecond clock and a comparison for qsort. */
#ifndef CARTS_MICRO_CLOCK_H
#define CARTS_MICRO_CLOCK_H

#include <time.h>

static inline double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static inline int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#endif
