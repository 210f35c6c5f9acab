/* Micro-benchmarks of the native runtime's task and epoch paths. Prints one
   "<metric>: <value>" line per measurement (medians over repetitions, microseconds);
   benchmarks/micro/run.py builds, runs and reports them. */
#define _POSIX_C_SOURCE 200809L
#include "arts.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"

#define TASKS 100000
#define REPS 11
#define EPOCHS 20000
#define HANDOFFS 2000
#define STENCIL_BLOCKS 16
#define STENCIL_SWEEPS 100

static double median(double *v, int n) {
  qsort(v, n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void report(const char *name, double *samples, int n) {
  printf("%s: %.3f\n", name, median(samples, n));
  fflush(stdout);
}

static void empty(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {}

/* Each task creates the next one: create -> schedule -> run latency on one worker. */
static void chain(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  if (paramv[0] > 0) {
    uint64_t left = paramv[0] - 1;
    artsEdtCreate(chain, 0, 1, &left, 0);
  }
}

/* Pre-created tasks signal each other in turn: signal -> ready -> run latency. */
static artsGuid_t *relay_tasks;
static void relay(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  uint64_t next = paramv[0] + 1;
  if (next < TASKS)
    artsSignalEdtValue(relay_tasks[next], 0, next);
}

/* Hand-off to another worker: the creator busy-waits (it does not help), so the task can only
   run if another worker takes it. */
static atomic_int handed_off;
static void mark(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  atomic_store_explicit(&handed_off, 1, memory_order_release);
}

static double handoff_us(void) {
  atomic_store(&handed_off, 0);
  double t0 = now_us();
  artsEdtCreate(mark, 0, 0, NULL, 0);
  while (!atomic_load_explicit(&handed_off, memory_order_acquire))
    ;
  return now_us() - t0;
}

static void arts_main(int argc, char **argv) {
  double samples[REPS];
  uint64_t zero = 0;

  /* warm-up: grow the deques and the allocator's caches */
  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (int i = 0; i < TASKS; i++)
    artsEdtCreate(empty, 0, 0, NULL, 0);
  artsWaitOnHandle(e);

  for (int r = 0; r < REPS; r++) {
    double t0 = now_us();
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (int i = 0; i < TASKS; i++)
      artsEdtCreate(empty, 0, 0, NULL, 0);
    artsWaitOnHandle(e);
    samples[r] = (now_us() - t0) / TASKS;
  }
  report("task.empty.us_per_task", samples, REPS);

  for (int r = 0; r < REPS; r++) {
    double t0 = now_us();
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (uint64_t i = 0; i < TASKS; i++) {
      artsGuid_t t = artsEdtCreate(empty, 0, 1, &i, 1);
      artsSignalEdtValue(t, 0, i);
    }
    artsWaitOnHandle(e);
    samples[r] = (now_us() - t0) / TASKS;
  }
  report("task.value_slot.us_per_task", samples, REPS);

  artsGuid_t db = artsReserveGuidRoute(ARTS_DB_READ, 0);
  artsDbCreateWithGuid(db, 64);
  for (int r = 0; r < REPS; r++) {
    double t0 = now_us();
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (int i = 0; i < TASKS; i++) {
      artsGuid_t t = artsEdtCreate(empty, 0, 0, NULL, 1);
      artsRecordDep(db, t, 0, ARTS_DB_READ);
    }
    artsWaitOnHandle(e);
    samples[r] = (now_us() - t0) / TASKS;
  }
  report("task.read_dep.us_per_task", samples, REPS);

  for (int r = 0; r < REPS; r++) {
    double t0 = now_us();
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (int i = 0; i < TASKS / 10; i++) {
      artsGuid_t t = artsEdtCreate(empty, 0, 0, NULL, 1);
      artsRecordDep(db, t, 0, ARTS_DB_WRITE);
    }
    artsWaitOnHandle(e);
    samples[r] = (now_us() - t0) / (TASKS / 10);
  }
  report("task.write_chain.us_per_task", samples, REPS);
  artsDbDestroy(db);

  /* A stencil's shape: each sweep reads three neighbouring blocks of one array and writes one
     block of the other, so every task but the first sweep's waits in datablock queues. */
  artsGuid_t grid[2][STENCIL_BLOCKS];
  for (int a = 0; a < 2; a++)
    for (int k = 0; k < STENCIL_BLOCKS; k++) {
      grid[a][k] = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
      artsDbCreateWithGuid(grid[a][k], 64);
    }
  double create_samples[REPS];
  for (int r = 0; r < REPS; r++) {
    double t0 = now_us();
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (int s = 0; s < STENCIL_SWEEPS; s++)
      for (int k = 0; k < STENCIL_BLOCKS; k++) {
        int lo = k > 0 ? k - 1 : k, hi = k + 1 < STENCIL_BLOCKS ? k + 1 : k;
        uint64_t route = (uint64_t)k + 1;
        artsGuid_t t = artsEdtCreate(empty, (uint32_t)route, 1, &route, hi - lo + 2);
        uint32_t slot = 0;
        for (int b = lo; b <= hi; b++)
          artsRecordDep(grid[s % 2][b], t, slot++, ARTS_DB_READ);
        artsRecordDep(grid[1 - s % 2][k], t, slot, ARTS_DB_WRITE);
      }
    create_samples[r] = (now_us() - t0) / (STENCIL_SWEEPS * STENCIL_BLOCKS);
    artsWaitOnHandle(e);
    samples[r] = (now_us() - t0) / (STENCIL_SWEEPS * STENCIL_BLOCKS);
  }
  report("task.stencil.us_per_task", samples, REPS);
  report("task.stencil.create_us_per_task", create_samples, REPS);
  for (int a = 0; a < 2; a++)
    for (int k = 0; k < STENCIL_BLOCKS; k++)
      artsDbDestroy(grid[a][k]);

  for (int r = 0; r < REPS; r++) {
    double t0 = now_us();
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    uint64_t n = TASKS;
    artsEdtCreate(chain, 0, 1, &n, 0);
    artsWaitOnHandle(e);
    samples[r] = (now_us() - t0) / TASKS;
  }
  report("task.chain_latency.us", samples, REPS);

  relay_tasks = malloc(TASKS * sizeof *relay_tasks);
  for (int r = 0; r < REPS; r++) {
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (uint64_t i = 0; i < TASKS; i++)
      relay_tasks[i] = artsEdtCreate(relay, 0, 1, &i, 1);
    double t0 = now_us();
    artsSignalEdtValue(relay_tasks[0], 0, 0);
    artsWaitOnHandle(e);
    samples[r] = (now_us() - t0) / TASKS;
  }
  free(relay_tasks);
  report("task.signal_relay_latency.us", samples, REPS);

  static double epoch_samples[EPOCHS];
  for (int i = 0; i < EPOCHS; i++) {
    double t0 = now_us();
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    artsWaitOnHandle(e);
    epoch_samples[i] = now_us() - t0;
  }
  report("epoch.empty.us", epoch_samples, EPOCHS);

  for (int i = 0; i < EPOCHS; i++) {
    double t0 = now_us();
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    artsEdtCreate(empty, 0, 1, &zero, 0);
    artsWaitOnHandle(e);
    epoch_samples[i] = now_us() - t0;
  }
  report("epoch.one_task.us", epoch_samples, EPOCHS);

  if (artsGetTotalWorkers() >= 2) {
    static double handoff_samples[HANDOFFS];
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (int i = 0; i < HANDOFFS; i++)
      handoff_samples[i] = handoff_us();
    report("task.handoff_spinning_worker.us", handoff_samples, HANDOFFS);
    for (int i = 0; i < HANDOFFS / 10; i++) {
      struct timespec pause = {0, 2000000}; /* long enough for the other worker to park */
      nanosleep(&pause, NULL);
      handoff_samples[i] = handoff_us();
    }
    report("task.handoff_parked_worker.us", handoff_samples, HANDOFFS / 10);
    artsWaitOnHandle(e);
  }

  printf("workers: %u\n", artsGetTotalWorkers());
  artsShutdown();
}

int main(int argc, char **argv) {
  artsSetEntryPoints(arts_main, NULL, NULL);
  return artsRT(argc, argv);
}
