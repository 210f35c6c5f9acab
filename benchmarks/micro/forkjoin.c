/* Fork-join epochs, the shape of a parallel loop: one epoch holding one task per worker,
   each doing a fixed amount of busy work, waited on by the creator (which helps). Prints
   microseconds per epoch (medians); forkjoin_omp.c is the same with `omp parallel for`.
   Tasks either ask for a worker each (chunk k -> worker k, as the compiler routes chunks) or
   go wherever the scheduler puts them. */
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

static void measure(const char *name, uint64_t work_us, int ask_for_worker) {
  static double samples[EPOCHS];
  uint32_t workers = artsGetTotalWorkers();
  for (int i = 0; i < EPOCHS; i++) {
    double t0 = now_us();
    artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (uint32_t w = 0; w < workers; w++)
      artsEdtCreate(spin, ask_for_worker ? 1 + w : 0, 1, &work_us, 0);
    artsWaitOnHandle(e);
    samples[i] = now_us() - t0;
  }
  qsort(samples, EPOCHS, sizeof *samples, by_value);
  printf("%s: %.3f\n", name, samples[EPOCHS / 2]);
  fflush(stdout);
}

static void arts_main(int argc, char **argv) {
  measure("forkjoin.empty.us", 0, 1);
  measure("forkjoin.empty_unrouted.us", 0, 0);
  measure("forkjoin.work20.us", 20, 1);
  measure("forkjoin.work20_unrouted.us", 20, 0);
  artsShutdown();
}

int main(int argc, char **argv) {
  artsSetEntryPoints(arts_main, NULL, NULL);
  return artsRT(argc, argv);
}
