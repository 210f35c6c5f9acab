/* Slots are filled by every kind of signal with the documented {guid, mode, ptr}; requests,
   signals and puts aimed at a datablock that is reserved but not created yet wait for its
   creation, which applies the puts before any task sees the payload. */
// EXPECT: mixed slots: db, value, null, db signal
// EXPECT: dependences on an uncreated datablock waited for it: 7 3
// EXPECT: puts: 0 1 2 3 4 5 6 7 100 101
// EXPECT: artsDbCreateRemote on this node: 16 bytes zeroed
#include "check.h"

#include <string.h>

static artsGuid_t a_guid, b_guid, late_guid;
static int64_t *a, *b;
static atomic_int mixed_ok, late_ok;

static void mixed(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  CHECK(depc == 4, "depc %u", depc);
  CHECK(depv[0].guid == a_guid && depv[0].mode == ARTS_DB_READ && depv[0].ptr == a, "slot 0");
  CHECK(depv[1].guid == 42 && depv[1].mode == ARTS_SINGLE_VALUE && depv[1].ptr == NULL, "slot 1");
  CHECK(depv[2].guid == NULL_GUID && depv[2].mode == ARTS_NULL && depv[2].ptr == NULL, "slot 2");
  CHECK(depv[3].guid == b_guid && depv[3].mode == ARTS_DB_WRITE && depv[3].ptr == b, "slot 3");
  CHECK(*(int64_t *)depv[0].ptr == 5, "a = %lld", (long long)*(int64_t *)depv[0].ptr);
  atomic_store(&mixed_ok, 1);
}

static void late_writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *p = depv[0].ptr;
  CHECK(p[0] == 7, "late block starts at %lld, the put was not applied first", (long long)p[0]);
  p[1] = 3;
  atomic_fetch_add(&late_ok, 1);
}

static void late_reader(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  const int64_t *p = depv[0].ptr;
  CHECK(p[1] == 3, "reader ran before the writer");
  CHECK(depv[1].guid == late_guid && depv[1].ptr == p, "unordered signal slot");
  atomic_fetch_add(&late_ok, 1);
}

static void check_zero(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  const unsigned char *p = depv[0].ptr;
  for (uint64_t i = 0; i < paramv[0]; i++)
    CHECK(p[i] == 0, "byte %llu is %u", (unsigned long long)i, p[i]);
  atomic_store(&mixed_ok, 2);
}

static void arts_main(int argc, char **argv) {
  a_guid = artsReserveGuidRoute(ARTS_DB_READ, 0);
  b_guid = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  a = artsDbCreateWithGuid(a_guid, sizeof *a);
  b = artsDbCreateWithGuid(b_guid, sizeof *b);
  *a = 5;

  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsGuid_t t = artsEdtCreate(mixed, 0, 0, NULL, 4);
  artsSignalEdtNull(t, 2);
  artsSignalEdt(t, 3, b_guid);
  artsSignalEdtValue(t, 1, 42);
  artsRecordDep(a_guid, t, 0, ARTS_DB_READ);
  artsWaitOnHandle(epoch);
  CHECK(atomic_load(&mixed_ok), "mixed task did not run");
  printf("mixed slots: db, value, null, db signal\n");

  /* Everything before the creation of late_guid. */
  late_guid = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  int64_t seven = 7;
  artsPutInDbEpoch(&seven, epoch, late_guid, 0, sizeof seven);
  artsGuid_t w = artsEdtCreate(late_writer, 0, 0, NULL, 1);
  artsRecordDep(late_guid, w, 0, ARTS_DB_WRITE);
  artsGuid_t r = artsEdtCreate(late_reader, 0, 0, NULL, 2);
  artsRecordDep(late_guid, r, 0, ARTS_DB_READ);
  artsSignalEdt(r, 1, late_guid);
  sleep_us(2000);
  CHECK(atomic_load(&late_ok) == 0, "a task ran before its datablock was created");
  int64_t *late = artsDbCreateWithGuid(late_guid, 2 * sizeof(int64_t));
  artsWaitOnHandle(epoch);
  printf("dependences on an uncreated datablock waited for it: %lld %lld\n", (long long)late[0],
         (long long)late[1]);

  /* Puts after creation, counted in the epoch, with offsets. */
  artsGuid_t buf_guid = artsReserveGuidRoute(ARTS_DB_READ, 0);
  int32_t *buf = artsDbCreateWithGuid(buf_guid, 10 * sizeof(int32_t));
  epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  int32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7}, tail[2] = {100, 101};
  artsPutInDbEpoch(values, epoch, buf_guid, 0, sizeof values);
  artsPutInDbEpoch(tail, epoch, buf_guid, 8 * sizeof(int32_t), sizeof tail);
  artsWaitOnHandle(epoch);
  printf("puts:");
  for (int i = 0; i < 10; i++)
    printf(" %d", buf[i]);
  printf("\n");

  artsGuid_t remote = artsDbCreateRemote(0, 16, ARTS_DB_WRITE);
  CHECK(artsGuidGetType(remote) == ARTS_DB_WRITE && artsGuidGetRank(remote) == 0, "remote guid");
  epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  uint64_t bytes = 16;
  artsGuid_t z = artsEdtCreate(check_zero, 0, 1, &bytes, 1);
  artsRecordDep(remote, z, 0, ARTS_DB_READ);
  artsWaitOnHandle(epoch);
  CHECK(atomic_load(&mixed_ok) == 2, "zero check did not run");
  artsDbDestroy(remote);
  printf("artsDbCreateRemote on this node: 16 bytes zeroed\n");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
