/*
 * 2-D max pooling and average pooling on an NCHW tensor x[n][c][h][w]
 * (float ****, four levels of malloc'd pointers), window K x K, stride S,
 * no padding: out[n][c][oh][ow] with oh = (H - K) / S + 1.
 *
 * Both kernels are parallel over (n, c) with collapse(2).
 * Checksum: sum of |max| + |avg| over both outputs, in double.
 */
#include "carts_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DPOOL_N=... etc. */
#if defined(MINI_DATASET)
#define POOL_N_DEFAULT 2
#define POOL_C_DEFAULT 4
#define POOL_H_DEFAULT 8
#define POOL_W_DEFAULT 8
#elif defined(MEDIUM_DATASET)
#define POOL_N_DEFAULT 8
#define POOL_C_DEFAULT 128
#define POOL_H_DEFAULT 64
#define POOL_W_DEFAULT 64
#elif defined(LARGE_DATASET)
#define POOL_N_DEFAULT 16
#define POOL_C_DEFAULT 256
#define POOL_H_DEFAULT 128
#define POOL_W_DEFAULT 128
#else /* SMALL_DATASET */
#define POOL_N_DEFAULT 4
#define POOL_C_DEFAULT 64
#define POOL_H_DEFAULT 32
#define POOL_W_DEFAULT 32
#endif

#ifndef POOL_N
#define POOL_N POOL_N_DEFAULT
#endif
#ifndef POOL_C
#define POOL_C POOL_C_DEFAULT
#endif
#ifndef POOL_H
#define POOL_H POOL_H_DEFAULT
#endif
#ifndef POOL_W
#define POOL_W POOL_W_DEFAULT
#endif
#ifndef POOL_K
#define POOL_K 2
#endif
#ifndef POOL_S
#define POOL_S 2
#endif

#define OUT_DIM(d) (((d) - POOL_K) / POOL_S + 1)

static float ****alloc_4d(int d0, int d1, int d2, int d3) {
  float ****a = (float ****)malloc(d0 * sizeof(float ***));
  for (int i = 0; i < d0; i++) {
    a[i] = (float ***)malloc(d1 * sizeof(float **));
    for (int j = 0; j < d1; j++) {
      a[i][j] = (float **)malloc(d2 * sizeof(float *));
      for (int k = 0; k < d2; k++)
        a[i][j][k] = (float *)malloc(d3 * sizeof(float));
    }
  }
  return a;
}

static void free_4d(float ****a, int d0, int d1, int d2) {
  for (int i = 0; i < d0; i++) {
    for (int j = 0; j < d1; j++) {
      for (int k = 0; k < d2; k++)
        free(a[i][j][k]);
      free(a[i][j]);
    }
    free(a[i]);
  }
  free(a);
}

static void init(float ****x, int n, int c, int h, int w) {
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++)
      for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
          int v = (b * 53 + f * 31 + i * 17 + j * 7 + i * j) % 257;
          x[b][f][i][j] = (float)v / 128.0f - 1.0f;
        }
}

static void max_pool(float ****x, float ****out, int n, int c, int oh,
                     int ow) {
  float best = 0.0f;
#pragma omp parallel for collapse(2) private(best)
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++)
      for (int i = 0; i < oh; i++)
        for (int j = 0; j < ow; j++) {
          best = x[b][f][i * POOL_S][j * POOL_S];
          for (int ki = 0; ki < POOL_K; ki++)
            for (int kj = 0; kj < POOL_K; kj++)
              best = fmaxf(best, x[b][f][i * POOL_S + ki][j * POOL_S + kj]);
          out[b][f][i][j] = best;
        }
}

static void avg_pool(float ****x, float ****out, int n, int c, int oh,
                     int ow) {
  const float inv_area = 1.0f / (float)(POOL_K * POOL_K);
#pragma omp parallel for collapse(2) firstprivate(inv_area)
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++)
      for (int i = 0; i < oh; i++)
        for (int j = 0; j < ow; j++) {
          float s = 0.0f;
          for (int ki = 0; ki < POOL_K; ki++)
            for (int kj = 0; kj < POOL_K; kj++)
              s += x[b][f][i * POOL_S + ki][j * POOL_S + kj];
          out[b][f][i][j] = s * inv_area;
        }
}

int main(void) {
  int n = POOL_N;
  int c = POOL_C;
  int h = POOL_H;
  int w = POOL_W;
  int oh = OUT_DIM(POOL_H);
  int ow = OUT_DIM(POOL_W);

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(pooling);

  float ****x = alloc_4d(n, c, h, w);
  float ****out_max = alloc_4d(n, c, oh, ow);
  float ****out_avg = alloc_4d(n, c, oh, ow);

  init(x, n, c, h, w);

  CARTS_KERNEL_TIMER_START(max_pool);
  max_pool(x, out_max, n, c, oh, ow);
  CARTS_KERNEL_TIMER_STOP(max_pool);

  CARTS_KERNEL_TIMER_START(avg_pool);
  avg_pool(x, out_avg, n, c, oh, ow);
  CARTS_KERNEL_TIMER_STOP(avg_pool);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  double checksum = 0.0;
  for (int b = 0; b < n; b++)
    for (int f = 0; f < c; f++)
      for (int i = 0; i < oh; i++)
        for (int j = 0; j < ow; j++)
          checksum += fabsf(out_max[b][f][i][j]) + fabsf(out_avg[b][f][i][j]);
  CARTS_BENCH_CHECKSUM(checksum);

  free_4d(x, n, c, h);
  free_4d(out_max, n, c, oh);
  free_4d(out_avg, n, c, oh);
  return 0;
}
