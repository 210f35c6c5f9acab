/*
 * Task granularity: STEPS time steps of WIDTH tasks each, every task running
 * a busy loop of ITERS iterations.  Shrinking ITERS shrinks the tasks until
 * the cost of creating, ordering and running them dominates; run.py sweeps
 * ITERS and reports the efficiency at each task duration.
 *
 *   task_bench [ITERS [STEPS [WIDTH [PATTERN]]]]
 *
 * Each argument overrides the macro of the same name (-DITERS=..., ...).
 * WIDTH 0 (the default) means omp_get_max_threads().  PATTERN is
 *
 *   stencil  the task of point x at step t reads points x-1, x, x+1 of step
 *            t-1 (clamped at the edges) and writes point x of step t, with
 *            depend(in:) and depend(out:) on those elements;
 *   trivial  no dependences: each task starts from a value of its own.
 *
 * The grid holds every step, (STEPS + 1) x WIDTH doubles in one array; row 0
 * is the initial condition.  The checksum is the sum of the last row: it
 * depends on ITERS, STEPS, WIDTH and PATTERN only, not on the thread count or
 * on the order in which ready tasks run.  A task that ran before one of its
 * inputs was written would read a 0 and change it.
 */
#include "../../examples/include/carts_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef ITERS
#define ITERS 1024
#endif
#ifndef STEPS
#define STEPS 100
#endif
#ifndef WIDTH
#define WIDTH 0
#endif
#ifndef PATTERN
#define PATTERN stencil
#endif
#define TB_STR_(x) #x
#define TB_STR(x) TB_STR_(x)

/* ITERS rounds of a 64-bit mixing step (shift, xor, multiply) on a value seeded from x.
 * Each round depends on the one before, so the loop's time is ITERS times the latency of
 * a shift, an xor and an integer multiply, the same in every compiler's code.  A
 * floating-point multiply-add chain is not (gcc fuses it into one FMA where the target has
 * one, LLVM does not unless told), nor is a linear recurrence (LLVM merges unrolled rounds
 * of s * a + c into one).  The result moves x by less than 2e-5. */
static double busy(double x, long iters) {
  unsigned long s = (unsigned long)(x * 1048576.0) + 1;
  for (long i = 0; i < iters; i++)
    s = (s ^ (s >> 29)) * 0xbf58476d1ce4e5b9UL;
  return x + (double)(s >> 44) * 1.0e-6 / 1048576.0;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? atol(argv[1]) : (long)ITERS;
  int steps = argc > 2 ? atoi(argv[2]) : STEPS;
  int width = argc > 3 ? atoi(argv[3]) : WIDTH;
  const char *pattern = argc > 4 ? argv[4] : TB_STR(PATTERN);
  if (width <= 0)
    width = omp_get_max_threads();
  int stencil = pattern[0] == 's';
  if (iters < 0 || steps < 1 || (!stencil && pattern[0] != 't')) {
    printf("usage: task_bench [ITERS [STEPS [WIDTH [stencil|trivial]]]]\n");
    return 2;
  }

  CARTS_BENCHMARKS_START();
  double *v = (double *)malloc((size_t)(steps + 1) * width * sizeof(double));
  for (int x = 0; x < width; x++)
    v[x] = 1.0 + 0.01 * x;
  for (int i = width; i < (steps + 1) * width; i++)
    v[i] = 0.0;

  CARTS_KERNEL_TIMER_START(tasks);
#pragma omp parallel
  {
#pragma omp single
    {
      for (int t = 1; t <= steps; t++) {
        for (int x = 0; x < width; x++) {
          int prev = (t - 1) * width;
          int here = t * width + x;
          int l = x > 0 ? x - 1 : x;
          int r = x < width - 1 ? x + 1 : x;
          if (stencil) {
#pragma omp task depend(in: v[prev + l], v[prev + x], v[prev + r]) depend(out: v[here])
            v[here] = busy(0.25 * v[prev + l] + 0.5 * v[prev + x] + 0.25 * v[prev + r] +
                               0.001 * (x + 1), iters);
          } else {
#pragma omp task
            v[here] = busy(1.0 + 0.01 * x + 0.001 * t, iters);
          }
        }
      }
    }
  }
  CARTS_KERNEL_TIMER_STOP(tasks);

  double sum = 0.0;
  for (int x = 0; x < width; x++)
    sum += v[steps * width + x];
  printf("tasks: %ld\n", (long)steps * width);
  CARTS_BENCH_CHECKSUM(sum);
  free(v);
  return 0;
}
