/* Datablock fetch and write-back bandwidth between two nodes.

   usage: transfer BLOCK_ELEMENTS REPS MODE      (MODE 0: read, 1: write)

   A 1-D array of 2 * BLOCK_ELEMENTS doubles, allocated and filled by node 0's host code, is
   block-partitioned between the 2 chunk tasks of each loop below. Its size comes from the
   command line, so the table cannot be distributed (initPerNode needs constant sizes) and
   node 0 owns both blocks: on 2 nodes x 1 worker chunk 1 runs on node 1 and its block
   crosses nodes:
     read  (MODE 0): a sum reduction; node 0 ships a copy of block 1 to node 1 per epoch.
     write (MODE 1): a[i] = 0.5 * a[i] + 1; node 1 gets a copy of block 1 and writes the
                     whole block back when its task ends.
   WARMUP + REPS epochs run; each of the REPS is timed with omp_get_wtime. Prints
   "name: value" lines that benchmarks/nodes/run.py parses. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "epoch_times.h"

#define WARMUP 3

int main(int argc, char **argv) {
  if (argc < 4) {
    printf("usage: transfer BLOCK_ELEMENTS REPS MODE\n");
    return 2;
  }
  int block = atoi(argv[1]);
  int reps = atoi(argv[2]);
  int mode = atoi(argv[3]);
  int n = 2 * block;
  double *a = (double *)malloc(n * sizeof(double));
  double *t = (double *)malloc(reps * sizeof(double));
  for (int i = 0; i < n; i++)
    a[i] = 0.25 * (i % 1000);

  double sum = 0.0;
  for (int r = 0; r < WARMUP + reps; r++) {
    double start = omp_get_wtime();
    if (mode == 0) {
#pragma omp parallel for reduction(+ : sum)
      for (int i = 0; i < n; i++)
        sum += a[i];
    } else {
#pragma omp parallel for
      for (int i = 0; i < n; i++)
        a[i] = 0.5 * a[i] + 1.0;
    }
    if (r >= WARMUP)
      t[r - WARMUP] = omp_get_wtime() - start;
  }

  double check = sum;
  for (int i = 0; i < n; i++)
    check += a[i];
  printf("epochs: %d\n", WARMUP + reps);
  printf("block_bytes: %ld\n", (long)block * (long)sizeof(double));
  printf("checksum: %.12e\n", check);
  print_epoch_times(t, reps);
  free(t);
  free(a);
  return 0;
}
