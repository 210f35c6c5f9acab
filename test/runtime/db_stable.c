/* ARTS_DB_READ_STABLE: the slot gets the owner's payload, seen as a READ; a stable read of a
   datablock not created yet waits for its creation; the tasks' returns release nothing that
   a later WRITE would wait for, and the datablock can be destroyed once they have run. */
// EXPECT: stable reads: 64 tasks saw the payload as READs
// EXPECT: a stable read waited for the datablock's creation
// EXPECT: a write after the stable reads ran
// EXPECT: destroyed after the stable reads
#include "check.h"

#define READERS 64

static artsGuid_t table_guid, late_guid;
static int64_t *table;
static atomic_int reads_ok, late_ok, late_created, write_ok;

/* paramv: the reader's index. depv: the table (stable). */
static void reader(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  CHECK(depv[0].guid == table_guid && depv[0].mode == ARTS_DB_READ && depv[0].ptr == table,
        "slot 0: guid %llx mode %u", (unsigned long long)depv[0].guid, depv[0].mode);
  const int64_t *t = depv[0].ptr;
  CHECK(t[paramv[0]] == 3 * (int64_t)paramv[0], "element %llu", (unsigned long long)paramv[0]);
  atomic_fetch_add(&reads_ok, 1);
}

static void late(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  CHECK(depv[0].guid == late_guid && depv[0].ptr != NULL, "late slot");
  CHECK(atomic_load(&late_created), "ran before its datablock was created");
  atomic_store(&late_ok, 1);
}

static void writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *t = depv[0].ptr, *l = depv[1].ptr;
  t[0] = -1;
  l[0] = -1;
  atomic_store(&write_ok, 1);
}

static void arts_main(int argc, char **argv) {
  table_guid = artsReserveGuidRoute(ARTS_DB_READ, 0);
  table = artsDbCreateWithGuid(table_guid, READERS * sizeof(int64_t));
  for (int i = 0; i < READERS; i++)
    table[i] = 3 * i;
  late_guid = artsReserveGuidRoute(ARTS_DB_READ, 0);

  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t i = 0; i < READERS; i++) {
    /* half through artsRecordDep, half through runs */
    if (i % 2) {
      artsGuid_t t = artsEdtCreateWithEpoch(reader, (uint32_t)i, 1, &i, 1, e);
      artsRecordDep(table_guid, t, 0, ARTS_DB_READ_STABLE);
    } else {
      artsDbRun run = {&table_guid, 1, 1, 0, 0, ARTS_DB_READ_STABLE};
      artsEdtCreateWithDbs(reader, (uint32_t)i, 1, &i, 1, e, 1, &run);
    }
  }
  artsDbRun late_run = {&late_guid, 1, 1, 0, 0, ARTS_DB_READ_STABLE};
  artsEdtCreateWithDbs(late, 1, 0, NULL, 1, e, 1, &late_run);
  sleep_us(20000);
  CHECK(atomic_load(&late_ok) == 0, "the task ran before its datablock existed");
  atomic_store(&late_created, 1);
  artsDbCreateWithGuid(late_guid, sizeof(int64_t));
  artsWaitOnHandle(e);
  CHECK(atomic_load(&reads_ok) == READERS, "%d reads", atomic_load(&reads_ok));
  printf("stable reads: %d tasks saw the payload as READs\n", READERS);
  CHECK(atomic_load(&late_ok), "the late task did not run");
  printf("a stable read waited for the datablock's creation\n");

  /* A holder left behind by either path would keep this WRITE waiting (a deadlock report). */
  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsDbRun runs[2] = {{&table_guid, 1, 1, 0, 0, ARTS_DB_WRITE}, {&late_guid, 1, 1, 0, 1, ARTS_DB_WRITE}};
  artsEdtCreateWithDbs(writer, 2, 0, NULL, 2, e, 2, runs);
  artsWaitOnHandle(e);
  CHECK(atomic_load(&write_ok) && table[0] == -1, "the write did not run");
  printf("a write after the stable reads ran\n");
  artsDbDestroy(table_guid);
  artsDbDestroy(late_guid);
  printf("destroyed after the stable reads\n");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
