/* Per-datablock ordering follows the order dependences were recorded: a writer chain runs in
   order, readers between two writers see the generation of the writer before them, a writer
   recorded after readers starts only once they have all released (WAR), and the order is
   that of artsRecordDep, not of task creation. */
// EXPECT: writer chain ran in order: 200 writers
// EXPECT: readers saw their generation: 597 reads
// EXPECT: writers waited for the readers before them: 199 writers
// EXPECT: registration order, not creation order: 50 writers
#include "check.h"

#define WRITERS 200
#define READERS 3
#define REVERSED 50

static artsGuid_t counter_guid;
static int64_t *counter;
static atomic_int readers_done[WRITERS];
static atomic_int reads_ok, war_ok;

static void writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t i = (int64_t)paramv[0];
  int64_t *c = depv[0].ptr;
  CHECK(paramc == 1 && depc == 1, "paramc %u depc %u", paramc, depc);
  CHECK(depv[0].guid == counter_guid && depv[0].mode == ARTS_DB_WRITE && c == counter,
        "writer %lld got guid %llx mode %u ptr %p", (long long)i, (unsigned long long)depv[0].guid,
        depv[0].mode, depv[0].ptr);
  CHECK(*c == i, "writer %lld ran at generation %lld", (long long)i, (long long)*c);
  if (i > 0) {
    CHECK(atomic_load(&readers_done[i]) == READERS, "writer %lld started with %d of %d readers done",
          (long long)i, atomic_load(&readers_done[i]), READERS);
    atomic_fetch_add(&war_ok, 1);
  }
  if (i % 16 == 0)
    sleep_us(200); /* give a wrongly scheduled successor the chance to overtake */
  *c = i + 1;
}

static void reader(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t gen = (int64_t)paramv[0];
  const int64_t *c = depv[0].ptr;
  CHECK(depv[0].mode == ARTS_DB_READ, "reader mode %u", depv[0].mode);
  CHECK(*c == gen, "reader of generation %lld saw %lld", (long long)gen, (long long)*c);
  if (gen % 10 == 0)
    sleep_us(300);
  CHECK(*c == gen, "generation changed under reader %lld: %lld", (long long)gen, (long long)*c);
  atomic_fetch_add(&readers_done[gen], 1);
  atomic_fetch_add(&reads_ok, 1);
}

static void arts_main(int argc, char **argv) {
  counter_guid = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  counter = artsDbCreateWithGuid(counter_guid, sizeof *counter);
  CHECK(counter && *counter == 0, "payload %p not zeroed", (void *)counter);

  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t i = 0; i < WRITERS; i++) {
    if (i > 0)
      for (int r = 0; r < READERS; r++) {
        artsGuid_t t = artsEdtCreate(reader, 0, 1, &i, 1);
        artsRecordDep(counter_guid, t, 0, ARTS_DB_READ);
      }
    artsGuid_t w = artsEdtCreate(writer, 0, 1, &i, 1);
    artsRecordDep(counter_guid, w, 0, ARTS_DB_WRITE);
  }
  CHECK(artsWaitOnHandle(epoch), "wait failed");
  CHECK(*counter == WRITERS, "counter %lld after the chain", (long long)*counter);
  printf("writer chain ran in order: %lld writers\n", (long long)*counter);
  printf("readers saw their generation: %d reads\n", atomic_load(&reads_ok));
  printf("writers waited for the readers before them: %d writers\n", atomic_load(&war_ok));

  /* Create the writers first, then record their dependences in reverse: the last created
     must run first. */
  *counter = 0;
  artsGuid_t tasks[REVERSED];
  epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t k = 0; k < REVERSED; k++) {
    uint64_t position = REVERSED - 1 - k;
    tasks[k] = artsEdtCreate(writer, 0, 1, &position, 1);
  }
  for (int k = REVERSED - 1; k >= 0; k--)
    artsRecordDep(counter_guid, tasks[k], 0, ARTS_DB_WRITE);
  artsWaitOnHandle(epoch);
  printf("registration order, not creation order: %lld writers\n", (long long)*counter);
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
