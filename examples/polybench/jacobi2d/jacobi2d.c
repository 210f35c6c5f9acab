/*
 * Jacobi 2-D: TSTEPS sweeps of a 5-point averaging stencil over the interior
 * of an N x N grid, ping-ponging between two double ** arrays:
 *
 *   B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j])
 *   A[i][j] = 0.2 * (B[i][j] + B[i][j-1] + B[i][j+1] + B[i+1][j] + B[i-1][j])
 *
 * The time loop is sequential; both sweeps of a step are parallel over rows.
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

#define DATA_TYPE double
#include "row_tables.h"

static void init(int n, double **A, double **B) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      A[i][j] = ((double)i * (j + 2) + 2) / n;
      B[i][j] = ((double)i * (j + 3) + 3) / n;
    }
}

static void kernel_jacobi_2d(int tsteps, int n, double **A, double **B) {
  for (int t = 0; t < tsteps; t++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] +
                         A[i - 1][j]);
#pragma omp parallel for schedule(static)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] +
                         B[i - 1][j]);
  }
}

int main(void) {
  int n = N;
  int tsteps = TSTEPS;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(jacobi2d);

  double **A = alloc_2d(n, n);
  double **B = alloc_2d(n, n);

  init(n, A, B);

  CARTS_KERNEL_TIMER_START(jacobi2d);
  kernel_jacobi_2d(tsteps, n, A, B);
  CARTS_KERNEL_TIMER_STOP(jacobi2d);

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
