/* Fork-join epochs, the shape of a parallel loop: one epoch holding one task per worker,
   each doing a fixed amount of busy work, waited on by the creator (which helps). Prints
   microseconds per epoch (medians); forkjoin_omp.c is the same with `omp parallel for`.
   Tasks either ask for a worker each (chunk k -> worker k, as the compiler routes chunks) or
   go wherever the scheduler puts them. The deps3 variant is a parallel loop's usual
   acquires: two datablocks every task reads, and the task's own block, which it writes;
   deps3_with_dbs makes the same tasks with artsEdtCreateWithDbs, as the compiler does, and
   deps3_private the same with two blocks of the task's own to read instead of shared ones
   (what sharing a datablock among an epoch's tasks costs), and deps3_stable the same with
   the shared reads made ARTS_DB_READ_STABLE, as the compiler does for datablocks no task
   writes. busy21 is the shape of the transformer's q/k/v epoch: three loops of 7 chunks,
   chunk k of each asking for worker k, each task reading two shared blocks stably and
   writing its own, and spinning 5 us, so that workers run tasks while the creator still
   launches. busy21_launchers is the same epoch as arts-launch-fanout shares it: groups of 4
   chunks launched by launcher tasks (launcher n asking for worker threads-1-n), the last
   group by the creator. */
#define _POSIX_C_SOURCE 200809L
#include "arts.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"

#define EPOCHS 4000

static void spin(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  double until = now_us() + (double)paramv[0];
  while (now_us() < until)
    ;
}

static void report(const char *name, double *samples) {
  qsort(samples, EPOCHS, sizeof *samples, by_value);
  printf("%s: %.3f\n", name, samples[EPOCHS / 2]);
  fflush(stdout);
}

/* `launch_name`: also report how long the creator took to create the tasks. */
static void measure(const char *name, const char *launch_name, uint64_t work_us,
                    int ask_for_worker) {
  static double samples[EPOCHS], launch[EPOCHS];
  uint32_t workers = artsGetTotalWorkers();
  for (int i = 0; i < EPOCHS; i++) {
    double t0 = now_us();
    artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (uint32_t w = 0; w < workers; w++)
      artsEdtCreate(spin, ask_for_worker ? 1 + w : 0, 1, &work_us, 0);
    launch[i] = now_us() - t0;
    artsWaitOnHandle(e);
    samples[i] = now_us() - t0;
  }
  report(name, samples);
  if (launch_name)
    report(launch_name, launch);
}

enum deps_kind { SEPARATE_CALLS, WITH_DBS, PRIVATE_READS, STABLE_READS };

static void measure_deps(const char *name, const char *launch_name, enum deps_kind kind) {
  static double samples[EPOCHS], launch[EPOCHS];
  uint32_t workers = artsGetTotalWorkers();
  static artsGuid_t shared[2], own[512], private_reads[512][2];
  for (int k = 0; k < 2; k++) {
    shared[k] = artsReserveGuidRoute(ARTS_DB_READ, 0);
    artsDbCreateWithGuid(shared[k], 4096);
  }
  for (uint32_t w = 0; w < workers && w < 512; w++) {
    own[w] = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
    artsDbCreateWithGuid(own[w], 4096);
    for (int k = 0; k < 2 && kind == PRIVATE_READS; k++) {
      private_reads[w][k] = artsReserveGuidRoute(ARTS_DB_READ, 0);
      artsDbCreateWithGuid(private_reads[w][k], 4096);
    }
  }
  uint64_t work_us = 0;
  for (int i = 0; i < EPOCHS; i++) {
    double t0 = now_us();
    artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (uint32_t w = 0; w < workers && w < 512; w++) {
      if (kind != SEPARATE_CALLS) {
        const artsGuid_t *reads = kind == PRIVATE_READS ? private_reads[w] : shared;
        uint32_t read_mode = kind == STABLE_READS ? ARTS_DB_READ_STABLE : ARTS_DB_READ;
        artsDbRun runs[2] = {{reads, 1, 2, 0, 0, read_mode}, {&own[w], 1, 1, 0, 2, ARTS_DB_WRITE}};
        artsEdtCreateWithDbs(spin, 1 + w, 1, &work_us, 3, NULL_GUID, 2, runs);
        continue;
      }
      artsGuid_t t = artsEdtCreate(spin, 1 + w, 1, &work_us, 3);
      artsRecordDep(shared[0], t, 0, ARTS_DB_READ);
      artsRecordDep(shared[1], t, 1, ARTS_DB_READ);
      artsRecordDep(own[w], t, 2, ARTS_DB_WRITE);
    }
    launch[i] = now_us() - t0;
    artsWaitOnHandle(e);
    samples[i] = now_us() - t0;
  }
  report(name, samples);
  report(launch_name, launch);
}

enum { BUSY_LOOPS = 3, BUSY_CHUNKS = 7, BUSY_GROUP = 4 };
static artsGuid_t busy_shared[2], busy_own[BUSY_LOOPS * BUSY_CHUNKS];
static uint64_t busy_work_us = 5;

/* Chunks [paramv[1], paramv[2]) of loop paramv[0] in epoch paramv[3]. */
static void busy_launch(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  uint32_t workers = artsGetTotalWorkers();
  for (uint64_t c = paramv[1]; c < paramv[2]; c++) {
    artsDbRun runs[2] = {{busy_shared, 1, 2, 0, 0, ARTS_DB_READ_STABLE},
                         {&busy_own[paramv[0] * BUSY_CHUNKS + c], 1, 1, 0, 2, ARTS_DB_WRITE}};
    artsEdtCreateWithDbs(spin, 1 + (uint32_t)c % workers, 1, &busy_work_us, 3, paramv[3], 2,
                         runs);
  }
}

/* The transformer's q/k/v epoch: BUSY_LOOPS loops of BUSY_CHUNKS chunks of busy_work_us
   each, launched by the creator, or (`launchers`) as arts-launch-fanout shares them: groups
   of BUSY_GROUP chunks by launcher tasks, the last group by the creator. */
static void measure_busy(const char *name, const char *launch_name, int launchers) {
  static double samples[EPOCHS], launch[EPOCHS];
  if (!busy_shared[0]) {
    for (int k = 0; k < 2; k++) {
      busy_shared[k] = artsReserveGuidRoute(ARTS_DB_READ, 0);
      artsDbCreateWithGuid(busy_shared[k], 4096);
    }
    for (int k = 0; k < BUSY_LOOPS * BUSY_CHUNKS; k++) {
      busy_own[k] = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
      artsDbCreateWithGuid(busy_own[k], 4096);
    }
  }
  uint32_t workers = artsGetTotalWorkers();
  uint64_t group = launchers ? BUSY_GROUP : BUSY_CHUNKS;
  for (int i = 0; i < EPOCHS; i++) {
    double t0 = now_us();
    artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    uint32_t n = 0;
    for (uint64_t loop = 0; loop < BUSY_LOOPS; loop++)
      for (uint64_t c = 0; c < BUSY_CHUNKS; c += group) {
        uint64_t end = c + group < BUSY_CHUNKS ? c + group : BUSY_CHUNKS;
        uint64_t params[4] = {loop, c, end, e};
        if (!launchers || (loop + 1 == BUSY_LOOPS && end == BUSY_CHUNKS))
          busy_launch(4, params, 0, NULL); /* the creator's own launches */
        else
          artsEdtCreate(busy_launch, 1 + (workers - 1 - n++ % workers), 4, params, 0);
      }
    launch[i] = now_us() - t0;
    artsWaitOnHandle(e);
    samples[i] = now_us() - t0;
  }
  report(name, samples);
  report(launch_name, launch);
}

static void arts_main(int argc, char **argv) {
  measure("forkjoin.empty.us", "forkjoin.empty.launch.us", 0, 1);
  measure_deps("forkjoin.deps3.us", "forkjoin.deps3.launch.us", SEPARATE_CALLS);
  measure_deps("forkjoin.deps3_with_dbs.us", "forkjoin.deps3_with_dbs.launch.us", WITH_DBS);
  measure_deps("forkjoin.deps3_private.us", "forkjoin.deps3_private.launch.us", PRIVATE_READS);
  measure_deps("forkjoin.deps3_stable.us", "forkjoin.deps3_stable.launch.us", STABLE_READS);
  measure("forkjoin.empty_unrouted.us", NULL, 0, 0);
  measure("forkjoin.work20.us", NULL, 20, 1);
  measure("forkjoin.work20_unrouted.us", NULL, 20, 0);
  measure_busy("forkjoin.busy21.us", "forkjoin.busy21.launch.us", 0);
  measure_busy("forkjoin.busy21_launchers.us", "forkjoin.busy21_launchers.launch.us", 1);
  artsShutdown();
}

int main(int argc, char **argv) {
  artsSetEntryPoints(arts_main, NULL, NULL);
  return artsRT(argc, argv);
}
