/*
 * 2-D convolution with a constant 3 x 3 kernel over an NI x NJ grid of
 * float ** rows, B from A, on the interior (the first and last row and column
 * of B are left as initialised):
 *
 *   B[i][j] = c11 * A[i-1][j-1] + c12 * A[i-1][j] + c13 * A[i-1][j+1]
 *           + c21 * A[i  ][j-1] + c22 * A[i  ][j] + c23 * A[i  ][j+1]
 *           + c31 * A[i+1][j-1] + c32 * A[i+1][j] + c33 * A[i+1][j+1]
 *
 * in the shape of PolyBench's convolution-2d for OpenMP: i and j are declared
 * once at the top of the kernel and the rows are shared by one parallel loop
 * with private(j).  One pass takes about half a nanosecond per point, so the
 * pass is repeated REPS times (each repetition computes the same B) to make
 * the timed span long enough to measure.  The weights have mixed signs; they
 * are multiples of 1/8 and A's values multiples of 1/64, so every product and
 * sum is exact in float and every thread count gives the same bits.
 * Checksum: sum of B in double (exact as well).
 */
#include "carts_bench.h"

#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DNI=... -DNJ=... -DREPS=... */
#if defined(MINI_DATASET)
#define CONV_NI_DEFAULT 32
#define CONV_NJ_DEFAULT 40
#define CONV_REPS_DEFAULT 1
#elif defined(MEDIUM_DATASET)
#define CONV_NI_DEFAULT 2048
#define CONV_NJ_DEFAULT 2048
#define CONV_REPS_DEFAULT 30
#elif defined(LARGE_DATASET)
#define CONV_NI_DEFAULT 4096
#define CONV_NJ_DEFAULT 4096
#define CONV_REPS_DEFAULT 60
#else /* SMALL_DATASET */
#define CONV_NI_DEFAULT 512
#define CONV_NJ_DEFAULT 512
#define CONV_REPS_DEFAULT 10
#endif

#ifndef NI
#define NI CONV_NI_DEFAULT
#endif
#ifndef NJ
#define NJ CONV_NJ_DEFAULT
#endif
#ifndef REPS
#define REPS CONV_REPS_DEFAULT
#endif

typedef float DATA_TYPE;

#include "row_tables.h"

static void init(int ni, int nj, DATA_TYPE **A, DATA_TYPE **B) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      A[i][j] = (DATA_TYPE)((i * 5 + j * 3 + 1) % 64) / 64.0f + 0.5f;
      B[i][j] = 0.0f;
    }
}

static void kernel_conv2d(int reps, int ni, int nj, DATA_TYPE **A, DATA_TYPE **B) {
  int r, i, j;
  DATA_TYPE c11 = +0.25f, c12 = -0.50f, c13 = +0.75f;
  DATA_TYPE c21 = -0.125f, c22 = +1.50f, c23 = -0.375f;
  DATA_TYPE c31 = +0.625f, c32 = -0.875f, c33 = +0.125f;

  for (r = 0; r < reps; r++) {
#pragma omp parallel for private(j)
    for (i = 1; i < ni - 1; i++)
      for (j = 1; j < nj - 1; j++)
        B[i][j] = c11 * A[i - 1][j - 1] + c12 * A[i - 1][j + 0] + c13 * A[i - 1][j + 1] +
                  c21 * A[i + 0][j - 1] + c22 * A[i + 0][j + 0] + c23 * A[i + 0][j + 1] +
                  c31 * A[i + 1][j - 1] + c32 * A[i + 1][j + 0] + c33 * A[i + 1][j + 1];
  }
}

int main(void) {
  int ni = NI;
  int nj = NJ;
  int reps = REPS;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(convolution2d);

  DATA_TYPE **A = alloc_2d(ni, nj);
  DATA_TYPE **B = alloc_2d(ni, nj);

  init(ni, nj, A, B);

  CARTS_KERNEL_TIMER_START(convolution2d);
  kernel_conv2d(reps, ni, nj, A, B);
  CARTS_KERNEL_TIMER_STOP(convolution2d);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      checksum += B[i][j];
  CARTS_BENCH_CHECKSUM(checksum);

  free_2d(A, ni);
  free_2d(B, ni);
  return 0;
}
