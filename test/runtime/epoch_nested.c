/* Epochs count tasks transitively: descendants join their creator's current epoch, an epoch
   started inside a task keeps the enclosing one open until it ends (even if nobody waits on
   it), tasks can be put in a named epoch, any task can wait on an epoch, and the finish task
   receives the number of tasks counted. */
// EXPECT: tree of tasks done at the wait: 1093 tasks
// EXPECT: unwaited inner epoch kept the outer one open: 4 tasks
// EXPECT: finish task got the count: 5
// EXPECT: named epoch from a child: 21 tasks
// EXPECT: another task waited on the epoch: 8 tasks done
// EXPECT: a launcher's 150 tasks, counted in batches: 150 done at the wait, finish task got 151
#include "check.h"

static atomic_int tree_done, inner_done, named_done, slow_done, finish_value = -1;

static void tree(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  uint64_t depth = paramv[0];
  if (depth > 0)
    for (int c = 0; c < 3; c++) {
      uint64_t d = depth - 1;
      artsEdtCreate(tree, 0, 1, &d, 0);
    }
  if (depth == 0 && atomic_load(&tree_done) % 97 == 0)
    sleep_us(500);
  atomic_fetch_add(&tree_done, 1);
}

static void slow_leaf(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  sleep_us(3000);
  atomic_fetch_add(&inner_done, 1);
}

static void starts_inner_epoch(uint32_t paramc, uint64_t *paramv, uint32_t depc,
                               artsEdtDep_t *depv) {
  artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (int i = 0; i < 4; i++)
    artsEdtCreate(slow_leaf, 0, 0, NULL, 0);
  /* returns without waiting */
}

static void finish(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  CHECK(depc == 1 && depv[0].mode == ARTS_SINGLE_VALUE && depv[0].ptr == NULL,
        "finish slot mode %u", depv[0].mode);
  atomic_store(&finish_value, (int)depv[0].guid);
}

static void empty(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {}

static void spawn_into(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  artsEdtCreateWithEpoch(empty, 0, 0, NULL, 0, paramv[0]);
}

static void named_leaf(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  sleep_us(100);
  atomic_fetch_add(&named_done, 1);
}

static void named_parent(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  artsGuid_t epoch = paramv[0];
  for (int i = 0; i < 20; i++)
    artsEdtCreateWithEpoch(named_leaf, 0, 0, NULL, 0, epoch);
  atomic_fetch_add(&named_done, 1);
}

static void slow(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  sleep_us(2000);
  atomic_fetch_add(&slow_done, 1);
}

static void watcher(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  CHECK(artsWaitOnHandle(paramv[0]), "watcher's wait failed");
  printf("another task waited on the epoch: %d tasks done\n", atomic_load(&slow_done));
}

static atomic_int launched_done;

static void launched(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  if (paramv[0] % 50 == 0)
    sleep_us(1000);
  atomic_fetch_add(&launched_done, 1);
}

/* As the compiler's launcher tasks do: many tasks into the epoch it is counted in, by GUID. */
static void launcher(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  for (uint64_t i = 0; i < 150; i++)
    artsEdtCreateWithEpoch(launched, 0, 1, &i, 0, paramv[0]);
}

static void arts_main(int argc, char **argv) {
  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  uint64_t depth = 6;
  artsEdtCreate(tree, 0, 1, &depth, 0);
  artsWaitOnHandle(e);
  printf("tree of tasks done at the wait: %d tasks\n", atomic_load(&tree_done));

  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsEdtCreate(starts_inner_epoch, 0, 0, NULL, 0);
  artsWaitOnHandle(e);
  printf("unwaited inner epoch kept the outer one open: %d tasks\n", atomic_load(&inner_done));

  /* Four tasks join the finish task's epoch directly, one by GUID from a task of a sibling. */
  artsGuid_t outer = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsGuid_t f = artsEdtCreate(finish, 0, 0, NULL, 1);
  e = artsInitializeAndStartEpoch(f, 0);
  for (int i = 0; i < 4; i++)
    artsEdtCreate(empty, 0, 0, NULL, 0);
  artsGuid_t sibling = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsEdtCreate(spawn_into, 0, 1, &e, 0);
  artsWaitOnHandle(sibling);
  artsWaitOnHandle(e);
  artsWaitOnHandle(outer);
  printf("finish task got the count: %d\n", atomic_load(&finish_value));

  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsEdtCreate(named_parent, 0, 1, &e, 0);
  artsWaitOnHandle(e);
  printf("named epoch from a child: %d tasks\n", atomic_load(&named_done));

  outer = artsInitializeAndStartEpoch(NULL_GUID, 0);
  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (int i = 0; i < 8; i++)
    artsEdtCreate(slow, 0, 0, NULL, 0);
  artsEdtCreateWithEpoch(watcher, 0, 1, &e, 0, outer);
  artsWaitOnHandle(e);
  artsWaitOnHandle(outer);

  outer = artsInitializeAndStartEpoch(NULL_GUID, 0);
  atomic_store(&finish_value, -1);
  f = artsEdtCreate(finish, 0, 0, NULL, 1);
  e = artsInitializeAndStartEpoch(f, 0);
  artsEdtCreate(launcher, 0, 1, &e, 0);
  artsWaitOnHandle(e);
  int done_at_wait = atomic_load(&launched_done);
  artsWaitOnHandle(outer);
  printf("a launcher's 150 tasks, counted in batches: %d done at the wait, finish task got %d\n",
         done_at_wait, atomic_load(&finish_value));
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
