/* Tasks routed to each worker in turn, half of them made ready by a signal after their
   creation; run under trace=FILE, every task is one row of the trace (test_runtime.py). */
// EXPECT: tasks run: 64
#include "check.h"

#define TASKS 64

static atomic_int ran;

void traced_leaf(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  sleep_us(100);
  atomic_fetch_add(&ran, 1);
}

static void arts_main(int argc, char **argv) {
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  uint32_t workers = artsGetTotalWorkers();
  for (uint64_t i = 0; i < TASKS; i++) {
    /* route = node + nodes * (1 + worker) asks for a worker (arts.h); one node here */
    uint32_t route = 1 + (uint32_t)(i % workers);
    if (i % 2 == 0) {
      artsEdtCreate(traced_leaf, route, 1, &i, 0);
    } else {
      artsGuid_t t = artsEdtCreate(traced_leaf, route, 1, &i, 1);
      artsSignalEdtValue(t, 0, i);
    }
  }
  artsWaitOnHandle(epoch);
  printf("tasks run: %d\n", atomic_load(&ran));
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
