/*
 * carts_bench.h - output contract shared by every carts-mlir example.
 *
 * Both builds of an example (ours through `carts execute`, and the reference
 * `cc -O3 -fopenmp`) include this header and print the same lines on stdout:
 *
 *   CARTS_BENCHMARKS_START() / CARTS_BENCHMARKS_STOP()    nothing (see below)
 *   CARTS_E2E_TIMER_START(name) / CARTS_E2E_TIMER_STOP()   e2e.<name>: %.9fs
 *   CARTS_KERNEL_TIMER_START(name) / _STOP(name)           kernel.<name>: %.6fs
 *   CARTS_BENCH_CHECKSUM(x)                                checksum: %.12e  (double)
 *   CARTS_BENCH_CHECKSUM_F(x)                              checksum: %.6e   (float)
 *   CARTS_BENCH_CHECKSUM_I(x)                              checksum: %d     (int)
 *   CARTS_BENCH_CHECKSUM_L(x)                              checksum: %ld    (long)
 *
 * Timer names are bare identifiers (`CARTS_KERNEL_TIMER_START(gemm)`); they are
 * stringified for printing and pasted into the names of the local variables
 * holding the start times, so START and STOP must be in the same block and a
 * name may be started only once per block.  One E2E timer per block.
 *
 * The expansions stay inside the C subset of the carts front end: plain
 * locals, printf, numeric casts, do/while; no structs, no _Generic.  The front
 * end always parses with -D__CARTS__, so it only ever sees the omp_get_wtime()
 * clock; the clock_gettime() fallback is for plain sequential `cc` builds.
 */
#ifndef CARTS_BENCH_H
#define CARTS_BENCH_H

#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#define CARTS_NOW() omp_get_wtime()
#else
/* clock_gettime is POSIX; make it visible under -std=c11 too.  Include this
 * header before any system header for that to take effect. */
#if !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L
#endif
#include <time.h>
static inline double carts_now_(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec; }
#define CARTS_NOW() carts_now_()
#endif

#include <stdio.h>

/* Whole-benchmark bracket: prints nothing.  START warms the thread pool so
 * that no timer pays for starting it: the OpenMP build runs one empty parallel
 * region (libgomp creates its threads there); the ARTS runtime has started its
 * workers before main, so the carts build needs nothing.  Call it before the
 * first timer. */
#if defined(_OPENMP) && !defined(__CARTS__)
#define CARTS_BENCHMARKS_START()                                              \
  do {                                                                        \
    _Pragma("omp parallel") { (void)0; }                                      \
  } while (0)
#else
#define CARTS_BENCHMARKS_START() do { } while (0)
#endif
#define CARTS_BENCHMARKS_STOP() do { } while (0)

/* End-to-end timer (allocation + init + kernels): `e2e.<name>: %.9fs`. */
#define CARTS_E2E_TIMER_START(name)                                           \
  const char *carts_e2e_name_ = #name;                                        \
  double carts_e2e_t0_ = CARTS_NOW()
#define CARTS_E2E_TIMER_STOP()                                                \
  printf("e2e.%s: %.9fs\n", carts_e2e_name_, CARTS_NOW() - carts_e2e_t0_)

/* Kernel timer: `kernel.<name>: %.6fs`. */
#define CARTS_KERNEL_TIMER_START(name) double carts_kt_##name = CARTS_NOW()
#define CARTS_KERNEL_TIMER_STOP(name)                                         \
  printf("kernel.%s: %.6fs\n", #name, CARTS_NOW() - carts_kt_##name)

/* Checksums.  The plain form takes any arithmetic value as a double. */
#define CARTS_BENCH_CHECKSUM(x) printf("checksum: %.12e\n", (double)(x))
#define CARTS_BENCH_CHECKSUM_F(x) printf("checksum: %.6e\n", (double)(float)(x))
#define CARTS_BENCH_CHECKSUM_I(x) printf("checksum: %d\n", (int)(x))
#define CARTS_BENCH_CHECKSUM_L(x) printf("checksum: %ld\n", (long)(x))

#endif /* CARTS_BENCH_H */
