/*
 * Layer normalisation over the hidden dimension of x[batch][hidden]:
 *
 *   y[b][i] = (x[b][i] - mean[b]) / sqrt(var[b] + eps) * gamma[i] + beta[i]
 *
 * Two parallel loops: per-row statistics (mean and 1/stddev, with the row
 * reductions done sequentially inside each iteration so the result does not
 * depend on the thread count), then the element-wise normalisation.
 * Checksum: sum of |y| in double.
 *
 * Inputs for checking against a reference (defaults: the pattern below):
 *   -DLN_INPUT=1    x constant along each row (zero variance: y is beta)
 *   -DLN_INPUT=2    the pattern times 1e4 (large values, same relative spread)
 *   -DLN_WEIGHTS=1  gamma = 1, beta = 0
 *   -DLN_WEIGHTS=2  gamma = 2, beta = 1
 *   -DLN_WEIGHTS=3  gamma in [0.5, 1.5) and beta in [-0.5, 0.5) from an LCG
 *   -DLN_DUMP       after the checksum, print eps, x, gamma, beta and y as
 *                   hex floats (%a, exact): a line `dump NAME D0 [D1]` and
 *                   then one line of values per row; `dump end` closes.
 */
#include "carts_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DLN_BATCH=... -DLN_HIDDEN=... */
#if defined(MINI_DATASET)
#define LN_BATCH_DEFAULT 4
#define LN_HIDDEN_DEFAULT 32
#elif defined(MEDIUM_DATASET)
#define LN_BATCH_DEFAULT 256
#define LN_HIDDEN_DEFAULT 4096
#elif defined(LARGE_DATASET)
#define LN_BATCH_DEFAULT 1024
#define LN_HIDDEN_DEFAULT 8192
#else /* SMALL_DATASET */
#define LN_BATCH_DEFAULT 64
#define LN_HIDDEN_DEFAULT 2048
#endif

#ifndef LN_BATCH
#define LN_BATCH LN_BATCH_DEFAULT
#endif
#ifndef LN_HIDDEN
#define LN_HIDDEN LN_HIDDEN_DEFAULT
#endif
#ifndef LN_EPS
#define LN_EPS 1e-5f
#endif
#ifndef LN_INPUT
#define LN_INPUT 0
#endif
#ifndef LN_WEIGHTS
#define LN_WEIGHTS 0
#endif

#define DATA_TYPE float
#include "row_tables.h"
#ifdef LN_DUMP
#define NORM_DUMP
#endif
#include "norm_support.h"

static void init(float **x, float *gamma, float *beta, int batch, int hidden) {
  for (int b = 0; b < batch; b++)
    for (int i = 0; i < hidden; i++) {
#if LN_INPUT == 1
      /* one value per row: the sums are exact, so the variance is 0 */
      x[b][i] = 0.5f * (float)(b % 11) - 1.75f;
#else
      int v = (b * 37 + i * 101) % 1009;
      /* each row gets its own offset and scale */
      x[b][i] = 0.5f * (float)(b % 11) - 2.0f +
                ((float)v / 1009.0f - 0.5f) * (1.0f + 0.25f * (float)(b % 3));
#if LN_INPUT == 2
      x[b][i] *= 1.0e4f;
#endif
#endif
    }
#if LN_WEIGHTS == 0
  for (int i = 0; i < hidden; i++) {
    gamma[i] = 0.75f + 0.5f * (float)(i % 13) / 13.0f;
    beta[i] = 0.01f * (float)(i % 17) - 0.08f;
  }
#elif LN_WEIGHTS >= 1 && LN_WEIGHTS <= 3
  fill_affine_weights(gamma, beta, hidden, LN_WEIGHTS);
#else
#error "LN_WEIGHTS must be 0, 1, 2 or 3"
#endif
}

/* mean[b] and rstd[b] = 1 / sqrt(var[b] + eps) for every row */
static void ln_stats(float **x, float *mean, float *rstd, int batch,
                     int hidden, float eps) {
#pragma omp parallel for firstprivate(eps) schedule(static)
  for (int b = 0; b < batch; b++) {
    double s = 0.0;
    for (int i = 0; i < hidden; i++)
      s += x[b][i];
    float m = (float)(s / hidden);
    double v = 0.0;
    for (int i = 0; i < hidden; i++) {
      float d = x[b][i] - m;
      v += d * d;
    }
    float var = (float)(v / hidden);
    mean[b] = m;
    rstd[b] = 1.0f / sqrtf(var + eps);
  }
}

static void ln_normalize(float **x, float **y, float *mean, float *rstd,
                         float *gamma, float *beta, int batch, int hidden) {
#pragma omp parallel for shared(x, y, mean, rstd, gamma, beta)
  for (int b = 0; b < batch; b++) {
    float m = mean[b];
    float r = rstd[b];
    for (int i = 0; i < hidden; i++)
      y[b][i] = (x[b][i] - m) * r * gamma[i] + beta[i];
  }
}

int main(void) {
  int batch = LN_BATCH;
  int hidden = LN_HIDDEN;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(layernorm);

  float **x = alloc_2d(batch, hidden);
  float **y = alloc_2d(batch, hidden);
  float *gamma = (float *)malloc(hidden * sizeof(float));
  float *beta = (float *)malloc(hidden * sizeof(float));
  float *mean = (float *)malloc(batch * sizeof(float));
  float *rstd = (float *)malloc(batch * sizeof(float));

  init(x, gamma, beta, batch, hidden);

  CARTS_KERNEL_TIMER_START(layernorm);
  ln_stats(x, mean, rstd, batch, hidden, LN_EPS);
  ln_normalize(x, y, mean, rstd, gamma, beta, batch, hidden);
  CARTS_KERNEL_TIMER_STOP(layernorm);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int b = 0; b < batch; b++)
    for (int i = 0; i < hidden; i++)
      checksum += fabsf(y[b][i]);
  CARTS_BENCH_CHECKSUM(checksum);

#ifdef LN_DUMP
  printf("dump eps %a\n", (double)(float)LN_EPS);
  dump_2d("x", x, batch, hidden);
  dump_1d("gamma", gamma, hidden);
  dump_1d("beta", beta, hidden);
  dump_2d("y", y, batch, hidden);
  printf("dump end\n");
#endif

  free_2d(x, batch);
  free_2d(y, batch);
  free(gamma);
  free(beta);
  free(mean);
  free(rstd);
  return 0;
}
