/* The node protocol end to end, on 3 nodes (any number of workers each): datablocks owned by
   every node, written and read by tasks on every node in one epoch (generations in recording
   order across nodes, remote writes written back), puts to and gets from other nodes' blocks,
   a value signal to a remote task, a task on node 1 that creates a task for node 2 in the
   host's epoch and waits on a nested epoch of its own with a task on node 0, and CONCURRENT
   writers on every node interleaving 4-byte elements of one datablock; after them, stable
   reads (ARTS_DB_READ_STABLE) of every node's block from the next node, which get copies of
   the blocks' last versions as READs do. The rounds, and the task on node 1's creations, are
   launches (artsLaunchBegin/End): what they send each node leaves as one message.
   Built as a shared library and run by test_nodes.py through NodeCluster.run_library.
   Prints "ok protocol" on node 0, or what differed (exit 1). */
#include "arts.h"

#include <stdio.h>
#include <string.h>

#define NODES 3
#define ROUNDS 12
#define LEN 1000
#define PROBE 5 /* the element the reading tasks check */

enum { R_CHECKS, R_FAILURES, R_SIGNALLED, R_CHILD, R_NESTED_CHILD, R_COUNT };

static artsGuid_t cell[NODES];
static artsGuid_t results;
static artsGuid_t shared; /* CONCURRENT writers, owned by node 1 */
#define SHARED_LEN 999
static int64_t *local_cell; /* node 0's own block (the host writes it directly) */

static void add_fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *data = depv[0].ptr;
  for (int i = 0; i < LEN; i++)
    data[i] += (int64_t)paramv[0] + i;
}

/* paramv: expected value of the probe element. depv: cell (READ), results (WRITE). */
static void check_fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  const int64_t *data = depv[0].ptr;
  int64_t *r = depv[1].ptr;
  r[R_CHECKS]++;
  if (data[PROBE] != (int64_t)paramv[0])
    r[R_FAILURES]++;
}

/* paramv: index of the results counter to bump. depv: results (WRITE). */
static void child_fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *r = depv[0].ptr;
  r[paramv[0]]++;
}

static void spawn_fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  uint64_t which = R_CHILD;
  artsLaunchBegin();
  artsGuid_t child = artsEdtCreate(child_fn, 2, 1, &which, 1); /* the host's epoch */
  artsRecordDep(results, child, 0, ARTS_DB_WRITE);
  artsGuid_t nested = artsInitializeAndStartEpoch(NULL_GUID, 0);
  which = R_NESTED_CHILD;
  artsGuid_t other = artsEdtCreate(child_fn, 0, 1, &which, 1);
  artsRecordDep(results, other, 0, ARTS_DB_WRITE);
  artsLaunchEnd();
  artsWaitOnHandle(nested);
}

/* depv: a value (slot 0), results (WRITE, slot 1). */
static void signalled_fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *r = depv[1].ptr;
  r[R_SIGNALLED] += (int64_t)depv[0].guid;
}

/* paramv: k. depv: shared (CONCURRENT): every element i with i % NODES == k. */
static void interleave_fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int32_t *data = depv[0].ptr;
  for (int i = (int)paramv[0]; i < SHARED_LEN; i += NODES)
    data[i] = 1000 * (int32_t)paramv[0] + i;
}

void *cartsTaskTable[] = {(void *)add_fn, (void *)check_fn, (void *)child_fn, (void *)spawn_fn,
                          (void *)signalled_fn, (void *)interleave_fn};
unsigned cartsTaskCount = 6;

static void init_per_node(uint32_t node, int argc, char **argv) {
  for (uint32_t n = 0; n < NODES; n++) {
    cell[n] = artsReserveGuidRoute(ARTS_DB_WRITE, n);
    void *p = artsDbCreateWithGuid(cell[n], LEN * sizeof(int64_t));
    if (n == node)
      local_cell = p;
    else if (p)
      printf("error: node %u got a payload for a block of node %u\n", node, n);
  }
  results = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  artsDbCreateWithGuid(results, R_COUNT * sizeof(int64_t));
  shared = artsReserveGuidRoute(ARTS_DB_WRITE, 1);
  artsDbCreateWithGuid(shared, SHARED_LEN * sizeof(int32_t));
}

static int failed;

static void expect(const char *what, int64_t got, int64_t want) {
  if (got != want) {
    printf("%s: got %lld, want %lld\n", what, (long long)got, (long long)want);
    failed = 1;
  }
}

static void program(int argc, char **argv) {
  static int64_t init[LEN], expected[NODES][LEN], seen[NODES][LEN], counters[R_COUNT];
  static int32_t interleaved[SHARED_LEN];
  if (artsGetTotalNodes() != NODES) {
    printf("error: run on %d nodes, not %u\n", NODES, artsGetTotalNodes());
    artsShutdown();
    return;
  }
  for (int i = 0; i < LEN; i++)
    init[i] = 7 * i;
  for (int n = 0; n < NODES; n++)
    memcpy(expected[n], init, sizeof init);

  /* Host initialisation: node 0's block directly, the others by puts. */
  memcpy(local_cell, init, sizeof init);
  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (int n = 1; n < NODES; n++)
    artsPutInDbEpoch(init, e, cell[n], 0, sizeof init);
  artsWaitOnHandle(e);

  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsLaunchBegin();
  for (uint64_t r = 0; r < ROUNDS; r++) {
    int c = (int)((r + 1) % NODES);
    artsGuid_t writer = artsEdtCreateWithEpoch(add_fn, (uint32_t)(r % NODES), 1, &r, 1, e);
    artsRecordDep(cell[c], writer, 0, ARTS_DB_WRITE);
    for (int i = 0; i < LEN; i++)
      expected[c][i] += (int64_t)r + i;
    uint64_t probe = (uint64_t)expected[c][PROBE];
    artsGuid_t reader = artsEdtCreateWithEpoch(check_fn, (uint32_t)((r + 2) % NODES), 1, &probe, 2, e);
    artsRecordDep(cell[c], reader, 0, ARTS_DB_READ);
    artsRecordDep(results, reader, 1, ARTS_DB_WRITE);
  }
  artsLaunchEnd();
  artsGuid_t spawner = artsEdtCreateWithEpoch(spawn_fn, 1, 0, NULL, 0, e);
  (void)spawner;
  artsGuid_t signalled = artsEdtCreateWithEpoch(signalled_fn, 2, 0, NULL, 2, e);
  artsRecordDep(results, signalled, 1, ARTS_DB_WRITE);
  artsSignalEdtValue(signalled, 0, 42);
  for (uint64_t k = 0; k < NODES; k++) {
    artsGuid_t writer = artsEdtCreateWithEpoch(interleave_fn, (uint32_t)k, 1, &k, 1, e);
    artsRecordDep(shared, writer, 0, ARTS_DB_CONCURRENT);
  }
  artsWaitOnHandle(e);

  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (int n = 0; n < NODES; n++) {
    uint64_t probe = (uint64_t)expected[n][PROBE];
    artsGuid_t reader = artsEdtCreateWithEpoch(check_fn, (uint32_t)((n + 1) % NODES), 1, &probe, 2, e);
    artsRecordDep(cell[n], reader, 0, ARTS_DB_READ_STABLE);
    artsRecordDep(results, reader, 1, ARTS_DB_WRITE);
  }
  artsWaitOnHandle(e);

  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (int n = 0; n < NODES; n++)
    artsGetFromDbEpoch(seen[n], e, cell[n], 0, sizeof seen[n]);
  artsGetFromDbEpoch(counters, e, results, 0, sizeof counters);
  artsGetFromDbEpoch(interleaved, e, shared, 0, sizeof interleaved);
  artsWaitOnHandle(e);

  for (int n = 0; n < NODES; n++)
    for (int i = 0; i < LEN && !failed; i++)
      expect("a block after the rounds", seen[n][i], expected[n][i]);
  for (int i = 0; i < SHARED_LEN && !failed; i++)
    expect("an element written by a CONCURRENT task", interleaved[i], 1000 * (i % NODES) + i);
  expect("reads that ran", counters[R_CHECKS], ROUNDS + NODES);
  expect("reads that saw the wrong generation", counters[R_FAILURES], 0);
  expect("the signalled value", counters[R_SIGNALLED], 42);
  expect("the child created on node 1 for node 2", counters[R_CHILD], 1);
  expect("the child in node 1's nested epoch", counters[R_NESTED_CHILD], 1);
  if (!failed)
    printf("ok protocol\n");
}

static int status;

static void arts_main(int argc, char **argv) {
  program(argc, argv);
  status = failed;
  artsShutdown();
}

int main(int argc, char **argv) {
  artsSetEntryPoints(arts_main, init_per_node, NULL);
  int rc = artsRT(argc, argv);
  return rc ? rc : status;
}
