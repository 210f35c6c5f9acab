/*
 * Correlation: the M x M correlation matrix of M variables observed N times,
 * data [N][M] and corr [M][M] double ** matrices,
 *
 *   mean[j]    = sum_i data[i][j] / N
 *   stddev[j]  = sqrt(sum_i (data[i][j] - mean[j])^2 / N)   (1 where ~0)
 *   data[i][j] = (data[i][j] - mean[j]) / (sqrt(N) * stddev[j])
 *   corr[i][j] = corr[j][i] = sum_k data[k][i] * data[k][j]  (j > i)
 *
 * in the shape of PolyBench's correlation for OpenMP: the counters i, j, k are
 * declared once at the top of the kernel, and each of the four steps is its
 * own parallel loop with the inner counters private.  The first two steps
 * share the columns (each walks down one column), the third the rows, and the
 * last the rows of corr's upper triangle: the iteration for row i writes
 * corr[i][j] and its mirror corr[j][i] for every j > i, so each entry has one
 * writer.  Every entry is accumulated in one fixed order, so every thread
 * count gives the same bits.
 * Checksum: sum of corr in double.
 */
#include "carts_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DM=... -DN=... */
#if defined(MINI_DATASET)
#define CORR_M_DEFAULT 28
#define CORR_N_DEFAULT 32
#elif defined(MEDIUM_DATASET)
#define CORR_M_DEFAULT 500
#define CORR_N_DEFAULT 600
#elif defined(LARGE_DATASET)
#define CORR_M_DEFAULT 1000
#define CORR_N_DEFAULT 1200
#else /* SMALL_DATASET */
#define CORR_M_DEFAULT 160
#define CORR_N_DEFAULT 180
#endif

#ifndef M
#define M CORR_M_DEFAULT
#endif
#ifndef N
#define N CORR_N_DEFAULT
#endif

typedef double DATA_TYPE;

#include "row_tables.h"

static void init(int m, int n, DATA_TYPE **data) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      data[i][j] = (DATA_TYPE)((i * (j + 1) + 3 * j + 1) % 97) / 97.0 + (DATA_TYPE)i / n;
}

static void kernel_correlation(int m, int n, DATA_TYPE **data, DATA_TYPE **corr,
                               DATA_TYPE *mean, DATA_TYPE *stddev) {
  int i, j, k;
  DATA_TYPE float_n = (DATA_TYPE)n;
  DATA_TYPE eps = 0.1;

  /* Column means. */
#pragma omp parallel for private(i)
  for (j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= float_n;
  }

  /* Column standard deviations; a near-constant column counts as 1, so that
   * it is not divided by almost zero. */
#pragma omp parallel for private(i)
  for (j = 0; j < m; j++) {
    stddev[j] = 0.0;
    for (i = 0; i < n; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }

  /* Center and scale every observation. */
#pragma omp parallel for private(j)
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= sqrt(float_n) * stddev[j];
    }

  /* The upper triangle and its mirror image. */
#pragma omp parallel for private(j, k)
  for (i = 0; i < m - 1; i++) {
    corr[i][i] = 1.0;
    for (j = i + 1; j < m; j++) {
      corr[i][j] = 0.0;
      for (k = 0; k < n; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[m - 1][m - 1] = 1.0;
}

int main(void) {
  int m = M;
  int n = N;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(correlation);

  DATA_TYPE **data = alloc_2d(n, m);
  DATA_TYPE **corr = alloc_2d(m, m);
  DATA_TYPE *mean = (DATA_TYPE *)malloc(m * sizeof(DATA_TYPE));
  DATA_TYPE *stddev = (DATA_TYPE *)malloc(m * sizeof(DATA_TYPE));

  init(m, n, data);

  CARTS_KERNEL_TIMER_START(correlation);
  kernel_correlation(m, n, data, corr, mean, stddev);
  CARTS_KERNEL_TIMER_STOP(correlation);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++)
      checksum += corr[i][j];
  CARTS_BENCH_CHECKSUM(checksum);

  free_2d(data, n);
  free_2d(corr, m);
  free(mean);
  free(stddev);
  return 0;
}
