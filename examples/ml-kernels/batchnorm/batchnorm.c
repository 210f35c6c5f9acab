/*
 * Batch normalisation (training-mode statistics) on an NCHW tensor, written
 * darknet-style as separate parallel loops: per-channel mean, per-channel
 * variance, normalise, scale (gamma) and shift (beta).
 *
 * x[n][c][hw] with hw = h * W + w, stored as float *** from malloc loops.
 * Checksum: sum of |out| accumulated in double (a plain sum of normalised
 * data is ~0 and dominated by rounding).
 *
 * Inputs for checking against a reference (defaults: the pattern below):
 *   -DBN_INPUT=1    x constant within each channel (zero variance: out is beta)
 *   -DBN_INPUT=2    the pattern times 1e4 (large values, same relative spread)
 *   -DBN_WEIGHTS=1  gamma = 1, beta = 0
 *   -DBN_WEIGHTS=2  gamma = 2, beta = 1
 *   -DBN_WEIGHTS=3  gamma in [0.5, 1.5) and beta in [-0.5, 0.5) from an LCG
 *   -DBN_DUMP       after the checksum, print eps, x, gamma, beta and out (as
 *                   `y`) in hex floats (%a, exact): a line `dump NAME D0 [D1
 *                   D2]` and then one line of values per innermost row;
 *                   `dump end` closes.
 */
#include "carts_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DATA_TYPE float
#include "cube_tables.h"
#ifdef BN_DUMP
#define NORM_DUMP
#endif
#include "norm_support.h"

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or each dimension directly with -DBN_N=... etc. */
#if defined(MINI_DATASET)
#define BN_N_DEFAULT 2
#define BN_C_DEFAULT 4
#define BN_H_DEFAULT 8
#define BN_W_DEFAULT 8
#elif defined(MEDIUM_DATASET)
#define BN_N_DEFAULT 8
#define BN_C_DEFAULT 128
#define BN_H_DEFAULT 64
#define BN_W_DEFAULT 64
#elif defined(LARGE_DATASET)
#define BN_N_DEFAULT 16
#define BN_C_DEFAULT 256
#define BN_H_DEFAULT 128
#define BN_W_DEFAULT 128
#else /* SMALL_DATASET */
#define BN_N_DEFAULT 4
#define BN_C_DEFAULT 64
#define BN_H_DEFAULT 32
#define BN_W_DEFAULT 32
#endif

#ifndef BN_N
#define BN_N BN_N_DEFAULT
#endif
#ifndef BN_C
#define BN_C BN_C_DEFAULT
#endif
#ifndef BN_H
#define BN_H BN_H_DEFAULT
#endif
#ifndef BN_W
#define BN_W BN_W_DEFAULT
#endif
#ifndef BN_EPS
#define BN_EPS 1e-5f
#endif
#ifndef BN_INPUT
#define BN_INPUT 0
#endif
#ifndef BN_WEIGHTS
#define BN_WEIGHTS 0
#endif

#define BN_HW (BN_H * BN_W)

static void init(float ***x, float *gamma, float *beta, int n, int c, int hw) {
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++)
      for (int i = 0; i < hw; i++) {
#if BN_INPUT == 1
        /* one value per channel: the sums are exact, so the variance is 0 */
        x[b][f][i] = (float)f * 0.05f + 0.25f;
#else
        /* a per-channel offset and spread, plus a deterministic pattern */
        int v = (b * 131 + f * 71 + i * 29) % 997;
        x[b][f][i] = (float)f * 0.05f + ((float)v / 997.0f - 0.5f) * (1.0f + 0.01f * (float)f);
#if BN_INPUT == 2
        x[b][f][i] *= 1.0e4f;
#endif
#endif
      }
#if BN_WEIGHTS == 0
  for (int f = 0; f < c; f++) {
    gamma[f] = 1.0f + 0.01f * (float)(f % 7);
    beta[f] = 0.1f * (float)(f % 5) - 0.2f;
  }
#elif BN_WEIGHTS >= 1 && BN_WEIGHTS <= 3
  fill_affine_weights(gamma, beta, c, BN_WEIGHTS);
#else
#error "BN_WEIGHTS must be 0, 1, 2 or 3"
#endif
}

/* mean[f] = average of x[.][f][.] */
static void bn_mean(float ***x, float *mean, int n, int c, int hw) {
#pragma omp parallel for
  for (int f = 0; f < c; f++) {
    double s = 0.0;
    for (int b = 0; b < n; b++)
      for (int i = 0; i < hw; i++)
        s += x[b][f][i];
    mean[f] = (float)(s / (double)(n * hw));
  }
}

/* variance[f] = average of (x - mean[f])^2 (biased, as in training) */
static void bn_variance(float ***x, float *mean, float *variance, int n, int c,
                        int hw) {
#pragma omp parallel for schedule(static)
  for (int f = 0; f < c; f++) {
    double s = 0.0;
    float m = mean[f];
    for (int b = 0; b < n; b++)
      for (int i = 0; i < hw; i++) {
        float d = x[b][f][i] - m;
        s += d * d;
      }
    variance[f] = (float)(s / (double)(n * hw));
  }
}

/* out = (x - mean) / sqrt(variance + eps) */
static void bn_normalize(float ***x, float ***out, float *mean,
                         float *variance, int n, int c, int hw) {
  float inv = 0.0f;
#pragma omp parallel for collapse(2) private(inv)
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++) {
      inv = 1.0f / sqrtf(variance[f] + BN_EPS);
      for (int i = 0; i < hw; i++)
        out[b][f][i] = (x[b][f][i] - mean[f]) * inv;
    }
}

/* out *= gamma[f] */
static void bn_scale(float ***out, float *gamma, int n, int c, int hw) {
#pragma omp parallel for collapse(2) schedule(static)
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++)
      for (int i = 0; i < hw; i++)
        out[b][f][i] *= gamma[f];
}

/* out += beta[f] */
static void bn_bias(float ***out, float *beta, int n, int c, int hw) {
#pragma omp parallel for collapse(2)
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++)
      for (int i = 0; i < hw; i++)
        out[b][f][i] += beta[f];
}

int main(void) {
  int n = BN_N;
  int c = BN_C;
  int hw = BN_HW;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(batchnorm);

  float ***x = alloc_3d(n, c, hw);
  float ***out = alloc_3d(n, c, hw);
  float *mean = (float *)malloc(c * sizeof(float));
  float *variance = (float *)malloc(c * sizeof(float));
  float *gamma = (float *)malloc(c * sizeof(float));
  float *beta = (float *)malloc(c * sizeof(float));

  init(x, gamma, beta, n, c, hw);

  CARTS_KERNEL_TIMER_START(batchnorm);
  bn_mean(x, mean, n, c, hw);
  bn_variance(x, mean, variance, n, c, hw);
  bn_normalize(x, out, mean, variance, n, c, hw);
  bn_scale(out, gamma, n, c, hw);
  bn_bias(out, beta, n, c, hw);
  CARTS_KERNEL_TIMER_STOP(batchnorm);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++)
      for (int i = 0; i < hw; i++)
        checksum += fabsf(out[b][f][i]);
  CARTS_BENCH_CHECKSUM(checksum);

#ifdef BN_DUMP
  printf("dump eps %a\n", (double)BN_EPS);
  dump_3d("x", x, n, c, hw);
  dump_1d("gamma", gamma, c);
  dump_1d("beta", beta, c);
  dump_3d("y", out, n, c, hw);
  printf("dump end\n");
#endif

  free_3d(x, n, c);
  free_3d(out, n, c);
  free(mean);
  free(variance);
  free(gamma);
  free(beta);
  return 0;
}
