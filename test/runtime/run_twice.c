/* artsRT can run several programs in one process: each run starts from a clean state (GUIDs
   reserved in initPerNode are the same every time), calls initPerNode once and initPerWorker
   once per worker, runs artsMain first on worker 0, and frees what the run left behind. */
// EXPECT: run 1: main on worker 0, 3 datablocks, sum 60
// EXPECT: run 2: main on worker 0, 3 datablocks, sum 60
// EXPECT: initPerNode GUIDs identical across runs: yes
// EXPECT: initPerWorker once per worker: yes
// EXPECT: run 3 ended without artsShutdown once its work drained: 10 tasks
#include "check.h"

#include <stdlib.h>

#define DBS 3

static artsGuid_t reserved[2][DBS];
static int run;
static atomic_int per_worker_calls, per_node_calls;
static atomic_int worker_seen[4096];
static atomic_int drained;

static void init_per_node(uint32_t node, int argc, char **argv) {
  CHECK(node == 0 && artsGetCurrentNode() == 0 && artsGetTotalNodes() == 1, "node %u", node);
  atomic_fetch_add(&per_node_calls, 1);
  for (int i = 0; i < DBS; i++)
    reserved[run][i] = artsReserveGuidRoute(ARTS_DB_WRITE, (uint32_t)i);
}

static void init_per_worker(uint32_t node, uint32_t worker, int argc, char **argv) {
  CHECK(worker < artsGetTotalWorkers() && artsGetCurrentWorker() == worker, "worker %u of %u",
        worker, artsGetTotalWorkers());
  atomic_fetch_add(&worker_seen[worker], 1);
  atomic_fetch_add(&per_worker_calls, 1);
}

static void add(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  *(int64_t *)depv[0].ptr += (int64_t)paramv[0];
}

static void arts_main(int argc, char **argv) {
  CHECK(argc >= 1 && argv && argv[0], "argc %d", argc);
  uint32_t worker = artsGetCurrentWorker();
  CHECK(atomic_load(&per_node_calls) == run + 1, "initPerNode ran %d times", atomic_load(&per_node_calls));
  CHECK(atomic_load(&per_worker_calls) == (int)((run + 1) * artsGetTotalWorkers()),
        "initPerWorker ran %d times before artsMain", atomic_load(&per_worker_calls));
  int64_t *blocks[DBS];
  for (int i = 0; i < DBS; i++) {
    blocks[i] = artsDbCreateWithGuid(reserved[run][i], sizeof(int64_t));
    CHECK(blocks[i] && *blocks[i] == 0, "datablock %d not created/zeroed", i);
  }
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (int i = 0; i < DBS; i++)
    for (uint64_t k = 1; k <= 4; k++) {
      uint64_t v = k * 2;
      artsGuid_t t = artsEdtCreate(add, 0, 1, &v, 1);
      artsRecordDep(reserved[run][i], t, 0, ARTS_DB_WRITE);
    }
  artsWaitOnHandle(epoch);
  int64_t sum = 0;
  for (int i = 0; i < DBS; i++) {
    sum += *blocks[i];
    artsDbDestroy(reserved[run][i]);
  }
  printf("run %d: main on worker %u, %d datablocks, sum %lld\n", run + 1, worker, DBS, (long long)sum);
  /* leave work behind that can never run: a task waiting on a slot nobody satisfies */
  artsEdtCreate(add, 0, 0, NULL, 1);
  artsShutdown();
}

static void drain(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  sleep_us(1000);
  atomic_fetch_add(&drained, 1);
}

static void main_without_shutdown(int argc, char **argv) {
  for (int i = 0; i < 10; i++)
    artsEdtCreate(drain, 0, 0, NULL, 0);
}

int main(int argc, char **argv) {
  for (run = 0; run < 2; run++) {
    artsSetEntryPoints(arts_main, init_per_node, init_per_worker);
    int rc = artsRT(argc, argv);
    CHECK(rc == 0, "artsRT returned %d in run %d", rc, run + 1);
  }
  int same = 1;
  for (int i = 0; i < DBS; i++)
    same &= reserved[0][i] == reserved[1][i] && artsGuidGetRank(reserved[0][i]) == 0 &&
            artsGuidGetType(reserved[0][i]) == ARTS_DB_WRITE;
  printf("initPerNode GUIDs identical across runs: %s\n", same ? "yes" : "no");
  int once = atomic_load(&per_worker_calls) == 2 * (int)artsGetTotalWorkers();
  for (uint32_t w = 0; w < artsGetTotalWorkers(); w++)
    once &= atomic_load(&worker_seen[w]) == 2;
  printf("initPerWorker once per worker: %s\n", once ? "yes" : "no");

  artsSetEntryPoints(main_without_shutdown, NULL, NULL);
  CHECK(artsRT(argc, argv) == 0, "third run failed");
  printf("run 3 ended without artsShutdown once its work drained: %d tasks\n", atomic_load(&drained));
  return 0;
}
