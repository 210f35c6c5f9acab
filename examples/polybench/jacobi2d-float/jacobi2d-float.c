/*
 * Jacobi 2-D in single precision: TSTEPS steps of a 5-point averaging stencil
 * over the interior of an N x N grid of float ** rows, ping-ponging between
 * two arrays:
 *
 *   B[i][j] = 0.2f * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j])
 *   A[i][j] = 0.2f * (B[i][j] + B[i][j-1] + B[i][1+j] + B[1+i][j] + B[i-1][j])
 *
 * in the shape of PolyBench's OpenMP jacobi-2d: i and j are declared once at
 * the top of the kernel, the time loop is sequential, and each sweep is its
 * own parallel loop over rows with private(j).  Every element is computed in
 * one fixed order, so every thread count gives the same bits.
 * Checksum: sum of A in double (all entries are positive).
 */
#include "carts_bench.h"

#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DN=... -DTSTEPS=... */
#if defined(MINI_DATASET)
#define JACOBI_N_DEFAULT 32
#define JACOBI_T_DEFAULT 5
#elif defined(MEDIUM_DATASET)
#define JACOBI_N_DEFAULT 1024
#define JACOBI_T_DEFAULT 100
#elif defined(LARGE_DATASET)
#define JACOBI_N_DEFAULT 2000
#define JACOBI_T_DEFAULT 200
#else /* SMALL_DATASET */
#define JACOBI_N_DEFAULT 256
#define JACOBI_T_DEFAULT 50
#endif

#ifndef N
#define N JACOBI_N_DEFAULT
#endif
#ifndef TSTEPS
#define TSTEPS JACOBI_T_DEFAULT
#endif

typedef float DATA_TYPE;

#include "row_tables.h"

static void init(int n, DATA_TYPE **A, DATA_TYPE **B) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i][j] = ((DATA_TYPE)i * (j + 2) + 2) / n;
      B[i][j] = ((DATA_TYPE)i * (j + 3) + 3) / n;
    }
}

static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE **A, DATA_TYPE **B) {
  int t, i, j;

  for (t = 0; t < tsteps; t++) {
#pragma omp parallel for private(j)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        B[i][j] = 0.2f * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] +
                          A[i - 1][j]);
#pragma omp parallel for private(j)
    for (i = 1; i < n - 1; i++)
      for (j = 1; j < n - 1; j++)
        A[i][j] = 0.2f * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] +
                          B[i - 1][j]);
  }
}

int main(void) {
  int n = N;
  int tsteps = TSTEPS;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(jacobi2d_float);

  DATA_TYPE **A = alloc_2d(n, n);
  DATA_TYPE **B = alloc_2d(n, n);

  init(n, A, B);

  CARTS_KERNEL_TIMER_START(jacobi2d_float);
  kernel_jacobi_2d(tsteps, n, A, B);
  CARTS_KERNEL_TIMER_STOP(jacobi2d_float);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      checksum += A[i][j];
  CARTS_BENCH_CHECKSUM(checksum);

  free_2d(A, n);
  free_2d(B, n);
  return 0;
}
