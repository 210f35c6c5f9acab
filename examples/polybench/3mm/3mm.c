/*
 * 3MM: a chain of three matrix products on double ** matrices,
 *
 *   E = A * B    A [NI][NK], B [NK][NJ], E [NI][NJ]
 *   F = C * D    C [NJ][NM], D [NM][NL], F [NJ][NL]
 *   G = E * F                            G [NI][NL]
 *
 * in the shape of PolyBench's 3mm: one parallel region holds the three
 * products as three work-sharing loops over output rows (the implicit barrier
 * after each loop orders G after E and F), and every entry is a dot product
 * accumulated in place in k order, so every thread count gives the same bits.
 * Checksum: sum of G in double (all entries are positive).
 */
#include "carts_bench.h"

#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DNI=... -DNJ=... -DNK=... -DNL=... -DNM=... */
#if defined(MINI_DATASET)
#define NI_DEFAULT 16
#define NJ_DEFAULT 18
#define NK_DEFAULT 20
#define NL_DEFAULT 22
#define NM_DEFAULT 24
#elif defined(MEDIUM_DATASET)
#define NI_DEFAULT 360
#define NJ_DEFAULT 380
#define NK_DEFAULT 400
#define NL_DEFAULT 420
#define NM_DEFAULT 440
#elif defined(LARGE_DATASET)
#define NI_DEFAULT 640
#define NJ_DEFAULT 720
#define NK_DEFAULT 800
#define NL_DEFAULT 880
#define NM_DEFAULT 960
#else /* SMALL_DATASET */
#define NI_DEFAULT 80
#define NJ_DEFAULT 90
#define NK_DEFAULT 100
#define NL_DEFAULT 110
#define NM_DEFAULT 120
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
#ifndef NM
#define NM NM_DEFAULT
#endif

typedef double DATA_TYPE;

#include "row_tables.h"

static void init(int ni, int nj, int nk, int nl, int nm, DATA_TYPE **A, DATA_TYPE **B,
                 DATA_TYPE **C, DATA_TYPE **D) {
  for (int i = 0; i < ni; i++)
    for (int k = 0; k < nk; k++)
      A[i][k] = (DATA_TYPE)((i * k + 1) % ni) / (5 * ni);
  for (int k = 0; k < nk; k++)
    for (int j = 0; j < nj; j++)
      B[k][j] = (DATA_TYPE)((k * (j + 1) + 2) % nj) / (5 * nj);
  for (int j = 0; j < nj; j++)
    for (int m = 0; m < nm; m++)
      C[j][m] = (DATA_TYPE)(j * (m + 3) % nl) / (5 * nl);
  for (int m = 0; m < nm; m++)
    for (int l = 0; l < nl; l++)
      D[m][l] = (DATA_TYPE)((m * (l + 2) + 2) % nk) / (5 * nk);
}

static void kernel_3mm(int ni, int nj, int nk, int nl, int nm, DATA_TYPE **E, DATA_TYPE **A,
                       DATA_TYPE **B, DATA_TYPE **F, DATA_TYPE **C, DATA_TYPE **D,
                       DATA_TYPE **G) {
#pragma omp parallel
  {
    /* E = A * B */
#pragma omp for schedule(static)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nj; j++) {
        E[i][j] = 0.0;
        for (int k = 0; k < nk; k++)
          E[i][j] += A[i][k] * B[k][j];
      }
    /* F = C * D */
#pragma omp for schedule(static)
    for (int i = 0; i < nj; i++)
      for (int j = 0; j < nl; j++) {
        F[i][j] = 0.0;
        for (int k = 0; k < nm; k++)
          F[i][j] += C[i][k] * D[k][j];
      }
    /* G = E * F */
#pragma omp for schedule(static)
    for (int i = 0; i < ni; i++)
      for (int j = 0; j < nl; j++) {
        G[i][j] = 0.0;
        for (int k = 0; k < nj; k++)
          G[i][j] += E[i][k] * F[k][j];
      }
  }
}

int main(void) {
  int ni = NI;
  int nj = NJ;
  int nk = NK;
  int nl = NL;
  int nm = NM;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(3mm);

  DATA_TYPE **A = alloc_2d(ni, nk);
  DATA_TYPE **B = alloc_2d(nk, nj);
  DATA_TYPE **C = alloc_2d(nj, nm);
  DATA_TYPE **D = alloc_2d(nm, nl);
  DATA_TYPE **E = alloc_2d(ni, nj);
  DATA_TYPE **F = alloc_2d(nj, nl);
  DATA_TYPE **G = alloc_2d(ni, nl);

  init(ni, nj, nk, nl, nm, A, B, C, D);

  CARTS_KERNEL_TIMER_START(3mm);
  kernel_3mm(ni, nj, nk, nl, nm, E, A, B, F, C, D, G);
  CARTS_KERNEL_TIMER_STOP(3mm);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int i = 0; i < ni; i++)
    for (int l = 0; l < nl; l++)
      checksum += G[i][l];
  CARTS_BENCH_CHECKSUM(checksum);

  free_2d(A, ni);
  free_2d(B, nk);
  free_2d(C, nj);
  free_2d(D, nm);
  free_2d(E, ni);
  free_2d(F, nj);
  free_2d(G, ni);
  return 0;
}
