/* Remote task launch latency: REPS epochs of one work-sharing loop of 2 iterations whose body
   stores one int (an empty body is compiled away, and its tasks with it). Compiled for 2 nodes
   x 1 worker the loop has 2 chunk tasks and chunk 1 runs on node 1: each epoch creates a task
   on node 1, which acquires its 4-byte block of `mark` for WRITE (a distributed table: node 1
   owns that block, so no bytes move), runs and reports its end to node 0, the epoch's home.
   Compiled for 1 node x 2
   workers both chunks are local. Each epoch is timed with omp_get_wtime; prints "name: value"
   lines (seconds) that benchmarks/nodes/run.py parses. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "epoch_times.h"

#ifndef REPS
#define REPS 200
#endif
#ifndef WARMUP
#define WARMUP 10
#endif

int main(void) {
  double t[REPS];
  int *mark = (int *)malloc(2 * sizeof(int));
  mark[0] = 0;
  mark[1] = 0;
  for (int r = 0; r < WARMUP; r++) {
#pragma omp parallel for
    for (int i = 0; i < 2; i++)
      mark[i] = r;
  }
  for (int r = 0; r < REPS; r++) {
    double start = omp_get_wtime();
#pragma omp parallel for
    for (int i = 0; i < 2; i++)
      mark[i] = r;
    t[r] = omp_get_wtime() - start;
  }
  printf("epochs: %d\n", REPS);
  printf("epochs_run: %d\n", WARMUP + REPS);
  printf("mark: %d\n", mark[0] + mark[1]);
  print_epoch_times(t, REPS);
  free(mark);
  return 0;
}
