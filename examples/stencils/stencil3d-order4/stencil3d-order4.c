/*
 * 3-D diffusion with a fourth-order Laplacian: TSTEPS explicit steps on an
 * N x N x N grid of float *** arrays (three levels of malloc'd pointers),
 *
 *   v[i][j][k] = u[i][j][k] + c[i][j][k] * (d2x + d2y + d2z)(u)[i][j][k]
 *
 * where each second derivative is the fourth-order central difference over
 * five points along its axis, (-1/12, 4/3, -5/2, 4/3, -1/12), written as a
 * small static inline helper.  The interior (two points in from every face)
 * is updated; the faces keep their initial values, which both arrays share.
 * The steps alternate between the arrays: even steps write v from u, odd
 * steps u from v (each step a call with the two arrays in the other order;
 * the front end does not take a pointer table reassigned or chosen by `?:`).
 *
 * The loop nest runs k, j, i with i innermost, and i indexes the first
 * dimension: consecutive iterations of the inner loop walk from one plane's
 * pointer table to the next, not along a row.  The outer k loop is the
 * parallel one.  c lies in [0.02, 0.05], below the explicit scheme's limit
 * of 0.125, so the field stays bounded; every element is computed in one
 * fixed order, so every thread count gives the same bits.
 * Checksum: sum of the newest array in double (entries stay close to their
 * initial values, which lie in [1, 2)).
 */
#include "carts_bench.h"

#include <stdio.h>
#include <stdlib.h>

#define DATA_TYPE float
#include "cube_tables.h"

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DN=... -DTSTEPS=... */
#if defined(MINI_DATASET)
#define STENCIL_N_DEFAULT 12
#define STENCIL_T_DEFAULT 2
#elif defined(MEDIUM_DATASET)
#define STENCIL_N_DEFAULT 96
#define STENCIL_T_DEFAULT 8
#elif defined(LARGE_DATASET)
#define STENCIL_N_DEFAULT 160
#define STENCIL_T_DEFAULT 16
#else /* SMALL_DATASET */
#define STENCIL_N_DEFAULT 40
#define STENCIL_T_DEFAULT 4
#endif

#ifndef N
#define N STENCIL_N_DEFAULT
#endif
#ifndef TSTEPS
#define TSTEPS STENCIL_T_DEFAULT
#endif

static void init(int n, float ***u, float ***v, float ***c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        u[i][j][k] = 1.0f + (float)((i * 7 + j * 3 + k * 5) % 16) / 16.0f;
        v[i][j][k] = u[i][j][k];
        c[i][j][k] = 0.02f + 0.03f * (float)((i + 2 * j + 3 * k) % 8) / 8.0f;
      }
}

/* Fourth-order second derivatives at (i, j, k), unit grid spacing. */
static inline float d2x(float ***u, int i, int j, int k) {
  return -1.0f / 12.0f * u[i - 2][j][k] + 4.0f / 3.0f * u[i - 1][j][k] -
         5.0f / 2.0f * u[i][j][k] + 4.0f / 3.0f * u[i + 1][j][k] -
         1.0f / 12.0f * u[i + 2][j][k];
}

static inline float d2y(float ***u, int i, int j, int k) {
  return -1.0f / 12.0f * u[i][j - 2][k] + 4.0f / 3.0f * u[i][j - 1][k] -
         5.0f / 2.0f * u[i][j][k] + 4.0f / 3.0f * u[i][j + 1][k] -
         1.0f / 12.0f * u[i][j + 2][k];
}

static inline float d2z(float ***u, int i, int j, int k) {
  return -1.0f / 12.0f * u[i][j][k - 2] + 4.0f / 3.0f * u[i][j][k - 1] -
         5.0f / 2.0f * u[i][j][k] + 4.0f / 3.0f * u[i][j][k + 1] -
         1.0f / 12.0f * u[i][j][k + 2];
}

static void step(int n, float ***u, float ***v, float ***c) {
#pragma omp parallel for schedule(static)
  for (int k = 2; k < n - 2; k++)
    for (int j = 2; j < n - 2; j++)
      for (int i = 2; i < n - 2; i++)
        v[i][j][k] = u[i][j][k] + c[i][j][k] * (d2x(u, i, j, k) + d2y(u, i, j, k) +
                                                d2z(u, i, j, k));
}

static void kernel_stencil3d(int tsteps, int n, float ***u, float ***v, float ***c) {
  for (int t = 0; t < tsteps; t++) {
    if (t % 2 == 0)
      step(n, u, v, c);
    else
      step(n, v, u, c);
  }
}

/* Sum in double, in index order. */
static double sum_3d(int n, float ***a) {
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        sum += a[i][j][k];
  return sum;
}

int main(void) {
  int n = N;
  int tsteps = TSTEPS;

  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(stencil3d_order4);

  float ***u = alloc_3d(n, n, n);
  float ***v = alloc_3d(n, n, n);
  float ***c = alloc_3d(n, n, n);

  init(n, u, v, c);

  CARTS_KERNEL_TIMER_START(stencil3d_order4);
  kernel_stencil3d(tsteps, n, u, v, c);
  CARTS_KERNEL_TIMER_STOP(stencil3d_order4);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  /* After an even number of steps the newest values are back in u, after an
   * odd number in v. */
  double checksum = tsteps % 2 == 0 ? sum_3d(n, u) : sum_3d(n, v);
  CARTS_BENCH_CHECKSUM(checksum);

  free_3d(u, n, n);
  free_3d(v, n, n);
  free_3d(c, n, n);
  return 0;
}
