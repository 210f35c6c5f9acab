/* artsEdtCreateWithDbs: the runs fill their slots in row-major order from GUID tables with a
   row stride, a slot no run names waits for a signal, a datablock reserved but not created
   yet holds the task until its creation, and a chain of writers made this way runs in the
   order of creation, as with artsRecordDep. */
// EXPECT: slots from runs: 4 reads of a 2x2 window, a write, a signalled value
// EXPECT: waited for the datablock's creation
// EXPECT: writer chain ran in order: 300 writers
#include "check.h"

#define CHAIN 300

static artsGuid_t grid[3][3], out_guid, late_guid, counter_guid;
static int64_t *cells[3][3], *out, *counter;
static atomic_int slots_ok, late_ok, chain_ok, late_created;

static void window(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  CHECK(depc == 6, "depc %u", depc);
  for (int k = 0; k < 4; k++) {
    int i = 1 + k / 2, j = k % 2;
    CHECK(depv[k].guid == grid[i][j] && depv[k].mode == ARTS_DB_READ && depv[k].ptr == cells[i][j],
          "slot %d: guid %llx mode %u", k, (unsigned long long)depv[k].guid, depv[k].mode);
  }
  CHECK(depv[4].guid == 77 && depv[4].mode == ARTS_SINGLE_VALUE, "slot 4: %llu mode %u",
        (unsigned long long)depv[4].guid, depv[4].mode);
  CHECK(depv[5].guid == out_guid && depv[5].mode == ARTS_DB_WRITE && depv[5].ptr == out, "slot 5");
  *(int64_t *)depv[5].ptr = 1;
  atomic_store(&slots_ok, 1);
}

static void late(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  CHECK(depv[0].guid == late_guid && depv[0].ptr != NULL, "late slot");
  CHECK(atomic_load(&late_created), "ran before its datablock was created");
  atomic_store(&late_ok, 1);
}

static void writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *c = depv[0].ptr;
  CHECK(*c == (int64_t)paramv[0], "writer %llu ran at generation %lld",
        (unsigned long long)paramv[0], (long long)*c);
  *c += 1;
  if (*c == CHAIN)
    atomic_store(&chain_ok, 1);
}

static void arts_main(int argc, char **argv) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      grid[i][j] = artsReserveGuidRoute(ARTS_DB_READ, 0);
      cells[i][j] = artsDbCreateWithGuid(grid[i][j], sizeof(int64_t));
    }
  out_guid = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  out = artsDbCreateWithGuid(out_guid, sizeof(int64_t));
  late_guid = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  counter_guid = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  counter = artsDbCreateWithGuid(counter_guid, sizeof(int64_t));

  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  /* rows 1..2, columns 0..1 of the 3x3 table: rows 3 GUIDs apart */
  artsDbRun runs[2] = {{&grid[1][0], 2, 2, 3, 0, ARTS_DB_READ}, {&out_guid, 1, 1, 0, 5, ARTS_DB_WRITE}};
  artsGuid_t t = artsEdtCreateWithDbs(window, 0, 0, NULL, 6, e, 2, runs);
  artsSignalEdtValue(t, 4, 77);
  artsDbRun late_run = {&late_guid, 1, 1, 0, 0, ARTS_DB_READ};
  artsEdtCreateWithDbs(late, 0, 0, NULL, 1, e, 1, &late_run);
  sleep_us(20000);
  CHECK(atomic_load(&late_ok) == 0, "the task ran before its datablock existed");
  atomic_store(&late_created, 1);
  artsDbCreateWithGuid(late_guid, sizeof(int64_t));
  artsDbRun chain_run = {&counter_guid, 1, 1, 0, 0, ARTS_DB_WRITE};
  for (uint64_t i = 0; i < CHAIN; i++)
    artsEdtCreateWithDbs(writer, 1 + i % 4, 1, &i, 1, e, 1, &chain_run);
  artsWaitOnHandle(e);
  CHECK(atomic_load(&slots_ok) && *out == 1, "window task did not run");
  printf("slots from runs: 4 reads of a 2x2 window, a write, a signalled value\n");
  CHECK(atomic_load(&late_ok), "the late task did not run");
  printf("waited for the datablock's creation\n");
  CHECK(atomic_load(&chain_ok), "chain ended at %lld", (long long)*counter);
  printf("writer chain ran in order: %lld writers\n", (long long)*counter);
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
