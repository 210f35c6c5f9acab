/*
 * GEMM: C = alpha * A * B + beta * C with A [NI][NK], B [NK][NJ], C [NI][NJ],
 * double ** from malloc loops.  The i loop is parallel; inside an iteration
 * the k-j order keeps the row of B streaming and the sums in a fixed order,
 * so every thread count gives the same bits.
 * Checksum: sum of C in double (all entries are positive).
 */
#include "carts_bench.h"

#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DNI=... -DNJ=... -DNK=... */
#if defined(MINI_DATASET)
#define GEMM_N_DEFAULT 32
#elif defined(MEDIUM_DATASET)
#define GEMM_N_DEFAULT 1024
#elif defined(LARGE_DATASET)
#define GEMM_N_DEFAULT 2000
#else /* SMALL_DATASET */
#define GEMM_N_DEFAULT 128
#endif

#ifndef NI
#define NI GEMM_N_DEFAULT
#endif
#ifndef NJ
#define NJ GEMM_N_DEFAULT
#endif
#ifndef NK
#define NK GEMM_N_DEFAULT
#endif

typedef double DATA_TYPE;

#include "row_tables.h"

static void init(int ni, int nj, int nk, DATA_TYPE **A, DATA_TYPE **B,
                 DATA_TYPE **C) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      C[i][j] = (DATA_TYPE)((i * j + 1) % ni) / ni;
  for (int i = 0; i < ni; i++)
    for (int k = 0; k < nk; k++)
      A[i][k] = (DATA_TYPE)(i * (k + 1) % nk) / nk;
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < nj; j++)
      B[k][j] = (DATA_TYPE)(k * (j + 2) % nj) / nj;
}

static void kernel_gemm(int ni, int nj, int nk, DATA_TYPE alpha,
                        DATA_TYPE beta, DATA_TYPE **C, DATA_TYPE **A,
                        DATA_TYPE **B) {
#pragma omp parallel for schedule(static) firstprivate(alpha, beta)
  for (int i = 0; i < ni; i++) {
    for (int j = 0; j < nj; j++)
      C[i][j] *= beta;
    for (int k = 0; k < nk; k++) {
      DATA_TYPE a = alpha * A[i][k];
      for (int j = 0; j < nj; j++)
        C[i][j] += a * B[k][j];
    }
  }
}

int main(void) {
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  DATA_TYPE alpha = 1.5;
  DATA_TYPE beta = 1.2;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(gemm);

  DATA_TYPE **A = alloc_2d(ni, nk);
  DATA_TYPE **B = alloc_2d(nk, nj);
  DATA_TYPE **C = alloc_2d(ni, nj);

  init(ni, nj, nk, A, B, C);

  CARTS_KERNEL_TIMER_START(gemm);
  kernel_gemm(ni, nj, nk, alpha, beta, C, A, B);
  CARTS_KERNEL_TIMER_STOP(gemm);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++)
      checksum += C[i][j];
  CARTS_BENCH_CHECKSUM(checksum);

  free_2d(A, ni);
  free_2d(B, nk);
  free_2d(C, ni);
  return 0;
}
