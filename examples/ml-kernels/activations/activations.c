/*
 * Element-wise activation functions on 1-D float arrays:
 *
 *   ReLU     y = max(x, 0)
 *   GELU     y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   (tanh form)
 *   sigmoid  y = 1 / (1 + exp(-x))
 *
 * Each activation is its own parallel loop and its own kernel timer.
 * Checksum: sum of |relu| + |gelu| + |sigmoid| in double, computed with a
 * parallel reduction (double accumulation of float values: the order change
 * between thread counts stays far below 1e-6 relative).
 */
#include "carts_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DACT_N=... */
#if defined(MINI_DATASET)
#define ACT_N_DEFAULT 1024
#elif defined(MEDIUM_DATASET)
#define ACT_N_DEFAULT (1 << 24)
#elif defined(LARGE_DATASET)
#define ACT_N_DEFAULT (1 << 26)
#else /* SMALL_DATASET */
#define ACT_N_DEFAULT (1 << 20)
#endif

#ifndef ACT_N
#define ACT_N ACT_N_DEFAULT
#endif

/* sqrt(2 / pi) */
#define GELU_K 0.7978845608028654f
#define GELU_C 0.044715f

static float *alloc_1d(int n) { return (float *)malloc(n * sizeof(float)); }

static void init(float *x, int n) {
  for (int i = 0; i < n; i++) {
    int v = (int)(((long)i * 7919L) % 4001L);
    /* values in [-6, 6) so every branch of every activation is used */
    x[i] = ((float)v / 4001.0f - 0.5f) * 12.0f;
  }
}

static void relu(const float *restrict x, float *restrict y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

static void gelu(const float *restrict x, float *restrict y, int n) {
#pragma omp parallel for schedule(static, 1024)
  for (int i = 0; i < n; i++) {
    float v = x[i];
    float inner = GELU_K * (v + GELU_C * v * v * v);
    y[i] = 0.5f * v * (1.0f + tanhf(inner));
  }
}

static void sigmoid(const float *restrict x, float *restrict y, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = 1.0f / (1.0f + expf(-x[i]));
}

int main(void) {
  int n = ACT_N;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(activations);

  float *x = alloc_1d(n);
  float *y_relu = alloc_1d(n);
  float *y_gelu = alloc_1d(n);
  float *y_sigmoid = alloc_1d(n);

  init(x, n);

  CARTS_KERNEL_TIMER_START(relu);
  relu(x, y_relu, n);
  CARTS_KERNEL_TIMER_STOP(relu);

  CARTS_KERNEL_TIMER_START(gelu);
  gelu(x, y_gelu, n);
  CARTS_KERNEL_TIMER_STOP(gelu);

  CARTS_KERNEL_TIMER_START(sigmoid);
  sigmoid(x, y_sigmoid, n);
  CARTS_KERNEL_TIMER_STOP(sigmoid);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
#pragma omp parallel for reduction(+ : checksum)
  for (int i = 0; i < n; i++)
    checksum += (double)fabsf(y_relu[i]) + (double)fabsf(y_gelu[i]) +
                (double)fabsf(y_sigmoid[i]);
  CARTS_BENCH_CHECKSUM(checksum);

  free(x);
  free(y_relu);
  free(y_gelu);
  free(y_sigmoid);
  return 0;
}
