/* A task waiting on an epoch keeps its worker running other ready tasks: recursive tasks
   that each start an epoch, spawn their children and wait complete even with one worker
   (every wait is nested on the stack of the one before it). */
// EXPECT: fib(18) with nested waits: 2584
// EXPECT: waits inside tasks: 4180
// EXPECT: worker ids in range: yes
#include "check.h"

static atomic_int waits, bad_worker;

static void fib(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  uint64_t n = paramv[0];
  uint64_t *result = (uint64_t *)(uintptr_t)paramv[1];
  if (artsGetCurrentWorker() >= artsGetTotalWorkers())
    atomic_fetch_add(&bad_worker, 1);
  if (n < 2) {
    *result = n;
    return;
  }
  uint64_t parts[2] = {0, 0};
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (int k = 0; k < 2; k++) {
    uint64_t params[2] = {n - 1 - k, (uint64_t)(uintptr_t)&parts[k]};
    artsEdtCreate(fib, 0, 2, params, 0);
  }
  CHECK(artsWaitOnHandle(epoch), "wait in fib(%llu) failed", (unsigned long long)n);
  atomic_fetch_add(&waits, 1);
  *result = parts[0] + parts[1];
}

static void arts_main(int argc, char **argv) {
  uint64_t result = 0;
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  uint64_t params[2] = {18, (uint64_t)(uintptr_t)&result};
  artsEdtCreate(fib, 0, 2, params, 0);
  artsWaitOnHandle(epoch);
  printf("fib(18) with nested waits: %llu\n", (unsigned long long)result);
  printf("waits inside tasks: %d\n", atomic_load(&waits));
  printf("worker ids in range: %s\n", atomic_load(&bad_worker) ? "no" : "yes");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
