/*
 * Elementwise memory-bandwidth baseline, STREAM's four operations on double
 * arrays of ELEM_N elements:
 *
 *   copy   c = a            2 arrays moved
 *   scale  b = s * c        2 arrays moved
 *   add    c = a + b        3 arrays moved
 *   triad  a = b + s * c    3 arrays moved
 *
 * Each operation is one parallel loop with no reuse, so its time is what the
 * memory delivers to the threads running it: the yardstick a memory-bound
 * kernel's achieved bandwidth is judged against (`carts analyze bandwidth`).
 * The four run in this order ELEM_REPS times, each repetition timed on its own
 * (`kernel.copy: ...` once per repetition). Every operation feeds the next, so
 * no loop can be dropped as dead and a wrong result shows in the checksum:
 * the sum of a + b + c after the last repetition.
 *
 * Sizes: -DELEM_N=... (default 1M elements per array), -DELEM_REPS=... (10).
 */
#include "carts_bench.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef ELEM_N
#define ELEM_N 1048576
#endif
#ifndef ELEM_REPS
#define ELEM_REPS 10
#endif
/* 2s + s^2 < 1: the values shrink slowly instead of overflowing over many
 * repetitions (each repetition multiplies a by 2s + s^2) */
#ifndef ELEM_SCALAR
#define ELEM_SCALAR 0.4
#endif

static double *alloc_1d(int n) { return (double *)malloc(n * sizeof(double)); }

/* No array starts as zeros: a compiler may turn malloc plus a zeroing loop into
 * calloc, whose pages are then first touched (faulted in) by the timed loops. */
static void init(double *a, double *b, double *c, int n) {
  for (int i = 0; i < n; i++) {
    a[i] = 1.0 + (double)(i % 16) / 16.0;
    b[i] = 2.0;
    c[i] = 0.5;
  }
}

static void copy(double *restrict a, double *restrict c, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    c[i] = a[i];
}

static void scale(double *restrict b, double *restrict c, double s, int n) {
#pragma omp parallel for schedule(static) firstprivate(s)
  for (int i = 0; i < n; i++)
    b[i] = s * c[i];
}

static void add(double *restrict a, double *restrict b, double *restrict c,
                int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}

static void triad(double *restrict a, double *restrict b, double *restrict c,
                  double s, int n) {
#pragma omp parallel for schedule(static) firstprivate(s)
  for (int i = 0; i < n; i++)
    a[i] = b[i] + s * c[i];
}

int main(void) {
  int n = ELEM_N;
  int reps = ELEM_REPS;
  double s = ELEM_SCALAR;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(elementwise);

  double *a = alloc_1d(n);
  double *b = alloc_1d(n);
  double *c = alloc_1d(n);

  init(a, b, c, n);

  for (int r = 0; r < reps; r++) {
    {
      CARTS_KERNEL_TIMER_START(copy);
      copy(a, c, n);
      CARTS_KERNEL_TIMER_STOP(copy);
    }
    {
      CARTS_KERNEL_TIMER_START(scale);
      scale(b, c, s, n);
      CARTS_KERNEL_TIMER_STOP(scale);
    }
    {
      CARTS_KERNEL_TIMER_START(add);
      add(a, b, c, n);
      CARTS_KERNEL_TIMER_STOP(add);
    }
    {
      CARTS_KERNEL_TIMER_START(triad);
      triad(a, b, c, s, n);
      CARTS_KERNEL_TIMER_STOP(triad);
    }
  }

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int i = 0; i < n; i++)
    checksum += a[i] + b[i] + c[i];
  CARTS_BENCH_CHECKSUM(checksum);

  free(a);
  free(b);
  free(c);
  return 0;
}
