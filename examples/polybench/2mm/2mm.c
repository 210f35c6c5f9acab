/*
 * 2MM: two chained matrix products on double ** matrices,
 *
 *   tmp = alpha * A * B      A [NI][NK], B [NK][NJ], tmp [NI][NJ]
 *   D   = tmp * C + beta * D                C [NJ][NL], D   [NI][NL]
 *
 * in the shape of PolyBench's 2mm for OpenMP: the loop counters i, j, k are
 * declared once at the top of the kernel, and one parallel region holds the
 * two products as two work-sharing loops over output rows with private(j, k)
 * (the implicit barrier after the first loop orders D after tmp).  Every entry
 * is accumulated in place in k order, so every thread count gives the same
 * bits.  Checksum: sum of D in double (all entries are positive).
 */
#include "carts_bench.h"

#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DNI=... -DNJ=... -DNK=... -DNL=... */
#if defined(MINI_DATASET)
#define NI_DEFAULT 16
#define NJ_DEFAULT 18
#define NK_DEFAULT 22
#define NL_DEFAULT 24
#elif defined(MEDIUM_DATASET)
#define NI_DEFAULT 360
#define NJ_DEFAULT 380
#define NK_DEFAULT 420
#define NL_DEFAULT 440
#elif defined(LARGE_DATASET)
#define NI_DEFAULT 800
#define NJ_DEFAULT 900
#define NK_DEFAULT 1000
#define NL_DEFAULT 1100
#else /* SMALL_DATASET */
#define NI_DEFAULT 100
#define NJ_DEFAULT 110
#define NK_DEFAULT 120
#define NL_DEFAULT 130
#endif

#ifndef NI
#define NI NI_DEFAULT
#endif
#ifndef NJ
#define NJ NJ_DEFAULT
#endif
#ifndef NK
#define NK NK_DEFAULT
#endif
#ifndef NL
#define NL NL_DEFAULT
#endif

typedef double DATA_TYPE;

#include "row_tables.h"

static void init(int ni, int nj, int nk, int nl, DATA_TYPE **A, DATA_TYPE **B,
                 DATA_TYPE **C, DATA_TYPE **D) {
  for (int i = 0; i < ni; i++)
    for (int k = 0; k < nk; k++)
      A[i][k] = (DATA_TYPE)((i * (k + 1) + 1) % ni) / ni;
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < nj; j++)
      B[k][j] = (DATA_TYPE)((k * (j + 2) + 3) % nj) / nj;
  for (int j = 0; j < nj; j++)
    for (int l = 0; l < nl; l++)
      C[j][l] = (DATA_TYPE)((j * (l + 3) + 1) % nl) / nl;
  for (int i = 0; i < ni; i++)
    for (int l = 0; l < nl; l++)
      D[i][l] = (DATA_TYPE)((i * (l + 1) + 2) % nk) / nk;
}

static void kernel_2mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE **tmp, DATA_TYPE **A, DATA_TYPE **B, DATA_TYPE **C,
                       DATA_TYPE **D) {
  int i, j, k;

#pragma omp parallel
  {
    /* tmp = alpha * A * B */
#pragma omp for private(j, k)
    for (i = 0; i < ni; i++)
      for (j = 0; j < nj; j++) {
        tmp[i][j] = 0.0;
        for (k = 0; k < nk; k++)
          tmp[i][j] += alpha * A[i][k] * B[k][j];
      }
    /* D = tmp * C + beta * D */
#pragma omp for private(j, k)
    for (i = 0; i < ni; i++)
      for (j = 0; j < nl; j++) {
        D[i][j] *= beta;
        for (k = 0; k < nj; k++)
          D[i][j] += tmp[i][k] * C[k][j];
      }
  }
}

int main(void) {
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  int nl = NL;
  DATA_TYPE alpha = 1.5;
  DATA_TYPE beta = 1.2;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(2mm);

  DATA_TYPE **A = alloc_2d(ni, nk);
  DATA_TYPE **B = alloc_2d(nk, nj);
  DATA_TYPE **C = alloc_2d(nj, nl);
  DATA_TYPE **D = alloc_2d(ni, nl);
  DATA_TYPE **tmp = alloc_2d(ni, nj);

  init(ni, nj, nk, nl, A, B, C, D);

  CARTS_KERNEL_TIMER_START(2mm);
  kernel_2mm(ni, nj, nk, nl, alpha, beta, tmp, A, B, C, D);
  CARTS_KERNEL_TIMER_STOP(2mm);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int i = 0; i < ni; i++)
    for (int l = 0; l < nl; l++)
      checksum += D[i][l];
  CARTS_BENCH_CHECKSUM(checksum);

  free_2d(A, ni);
  free_2d(B, nk);
  free_2d(C, nj);
  free_2d(D, ni);
  free_2d(tmp, ni);
  return 0;
}
