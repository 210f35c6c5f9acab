/* 100k small tasks in one epoch, created by one task and run by all workers; each carries
   its parameters by value and one slot satisfied by a value signal. */
// EXPECT: tasks run: 100000
// EXPECT: parameter sum: 4999950000
// EXPECT: signalled value sum: 5000000000
#include "check.h"

#define TASKS 100000

static atomic_long ran, param_sum, value_sum;

static void leaf(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  atomic_fetch_add(&ran, 1);
  atomic_fetch_add(&param_sum, (long)paramv[0]);
  if (depc == 1) {
    CHECK(depv[0].mode == ARTS_SINGLE_VALUE, "mode %u", depv[0].mode);
    atomic_fetch_add(&value_sum, (long)depv[0].guid);
  }
}

static void arts_main(int argc, char **argv) {
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t i = 0; i < TASKS; i++) {
    if (i % 2 == 0) {
      artsEdtCreate(leaf, 0, 1, &i, 0);
    } else {
      artsGuid_t t = artsEdtCreate(leaf, 0, 1, &i, 1);
      artsSignalEdtValue(t, 0, 2 * i);
    }
  }
  artsWaitOnHandle(epoch);
  CHECK(atomic_load(&ran) == TASKS, "ran %ld", atomic_load(&ran));
  printf("tasks run: %ld\n", atomic_load(&ran));
  printf("parameter sum: %ld\n", atomic_load(&param_sum));
  /* the odd i carry 2*i: 2 * (1 + 3 + ... + 99999) = 2 * 50000^2 */
  printf("signalled value sum: %ld\n", atomic_load(&value_sum));
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
