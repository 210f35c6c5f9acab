/* The node transport through the ARTS C API directly, on 2 nodes: what a compiled program's
   epochs are made of, without the compiler's choices (chunking, reduction partials).

   usage: native REPS SIZE...        (SIZE: datablock bytes, one datablock of each, on node 0)

   Each figure is the median over REPS epochs of the epoch's time on node 0 (start the epoch,
   create the task(s), wait for the epoch):
     local_empty      one task without dependences on node 0
     remote_empty     one task without dependences on node 1: create there, run, end reported
     remote_batch16   16 such tasks on node 1 in one epoch (the creates go in one batch)
     read.<SIZE>      one task on node 1 with a READ of node 0's SIZE-byte datablock
     write.<SIZE>     the same with a WRITE (fetch, then write-back of the whole block)
   Built as a shared library and run on the node actors (NodeCluster.run_library) by
   benchmarks/nodes/run.py; prints "native.<figure>_s: <seconds>" lines on node 0. */
#define _POSIX_C_SOURCE 200809L
#include "arts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZES 16
#define BATCH 16

static int sizes_count;
static uint64_t sizes[MAX_SIZES];
static artsGuid_t blocks[MAX_SIZES];

static void empty_fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {}

/* Touches the first and last byte of its block, so the payload is really there. */
static void touch_fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  volatile unsigned char *p = depv[0].ptr;
  uint64_t bytes = paramv[0];
  unsigned char v = p[0];
  v ^= p[bytes - 1];
  if (depv[0].mode == ARTS_DB_WRITE) {
    p[0] = (unsigned char)(v + 1);
    p[bytes - 1] = (unsigned char)(v + 2);
  }
}

void *cartsTaskTable[] = {(void *)empty_fn, (void *)touch_fn};
unsigned cartsTaskCount = 2;

static void init_per_node(uint32_t node, int argc, char **argv) {
  sizes_count = 0;
  for (int k = 2; k < argc && sizes_count < MAX_SIZES; k++) {
    sizes[sizes_count] = strtoull(argv[k], NULL, 10);
    blocks[sizes_count] = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
    void *p = artsDbCreateWithGuid(blocks[sizes_count], sizes[sizes_count]);
    if (p)
      memset(p, 1, sizes[sizes_count]);
    sizes_count++;
  }
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report(const char *name, double *t, int n) {
  qsort(t, n, sizeof *t, by_value);
  printf("native.%s_s: %.9f\n", name, n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]));
}

/* kind 0: `count` empty tasks on `route`; kind 1: one touch_fn task with a dependence. */
static double epoch(uint32_t route, int count, artsGuid_t db, uint64_t bytes, uint32_t mode) {
  double start = now_s();
  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  if (db == NULL_GUID) {
    for (int k = 0; k < count; k++)
      artsEdtCreateWithEpoch(empty_fn, route, 0, NULL, 0, e);
  } else {
    artsGuid_t t = artsEdtCreateWithEpoch(touch_fn, route, 1, &bytes, 1, e);
    artsRecordDep(db, t, 0, mode);
  }
  artsWaitOnHandle(e);
  return now_s() - start;
}

static void program(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 100;
  if (reps < 1)
    reps = 1;
  if (artsGetTotalNodes() < 2) {
    printf("error: run on %u node(s), needs 2\n", artsGetTotalNodes());
    return;
  }
  double *t = malloc(sizeof(double) * (size_t)reps);
  char name[64];
  for (int k = 0; k < 5; k++) /* warm up */
    epoch(1, 1, NULL_GUID, 0, 0);
  for (int r = 0; r < reps; r++)
    t[r] = epoch(0, 1, NULL_GUID, 0, 0);
  report("local_empty", t, reps);
  for (int r = 0; r < reps; r++)
    t[r] = epoch(1, 1, NULL_GUID, 0, 0);
  report("remote_empty", t, reps);
  for (int r = 0; r < reps; r++)
    t[r] = epoch(1, BATCH, NULL_GUID, 0, 0);
  report("remote_batch16", t, reps);
  for (int s = 0; s < sizes_count; s++) {
    int n = sizes[s] >= (8u << 20) ? (reps < 7 ? reps : 7) : sizes[s] >= (1u << 20) ? (reps < 20 ? reps : 20) : reps;
    for (int m = 0; m < 2; m++) {
      uint32_t mode = m ? ARTS_DB_WRITE : ARTS_DB_READ;
      epoch(1, 1, blocks[s], sizes[s], mode); /* warm up */
      for (int r = 0; r < n; r++)
        t[r] = epoch(1, 1, blocks[s], sizes[s], mode);
      snprintf(name, sizeof name, "%s.%llu", m ? "write" : "read", (unsigned long long)sizes[s]);
      report(name, t, n);
    }
  }
  free(t);
  fflush(stdout);
}

static void arts_main(int argc, char **argv) {
  program(argc, argv);
  artsShutdown();
}

int main(int argc, char **argv) {
  artsSetEntryPoints(arts_main, init_per_node, NULL);
  return artsRT(argc, argv);
}
