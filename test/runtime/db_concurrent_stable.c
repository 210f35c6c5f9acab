/* ARTS_DB_CONCURRENT_STABLE: every writer's slot gets the owner's payload, seen as a
   CONCURRENT, and they write disjoint parts of it at once; a READ afterwards sees all of it;
   the writers' returns release nothing that a later WRITE would wait for. The same on a
   payload of 3 MiB (its own mapping, which writers sharing it move to small pages). */
// EXPECT: stable concurrent writes: 64 tasks wrote their parts of 64 elements
// EXPECT: stable concurrent writes: 64 tasks wrote their parts of 393216 elements
// EXPECT: a write after the stable concurrent writes ran
#include "check.h"

#define WRITERS 64

static artsGuid_t guids[2];
static int64_t *payloads[2];
static uint64_t lengths[2] = {WRITERS, 3u << 17}; /* 512 bytes and 3 MiB of int64 */
static atomic_int writes_ok, sums_ok, write_ok;

/* paramv: the datablock's index, the writer's index. */
static void writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  uint64_t which = paramv[0], k = paramv[1];
  CHECK(depv[0].guid == guids[which] && depv[0].mode == ARTS_DB_CONCURRENT &&
            depv[0].ptr == payloads[which],
        "slot 0: guid %llx mode %u", (unsigned long long)depv[0].guid, depv[0].mode);
  int64_t *p = depv[0].ptr;
  uint64_t part = lengths[which] / WRITERS;
  for (uint64_t i = k * part; i < (k + 1) * part; i++)
    p[i] = (int64_t)i + 1;
  atomic_fetch_add(&writes_ok, 1);
}

static void summer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  uint64_t n = lengths[paramv[0]];
  const int64_t *p = depv[0].ptr;
  int64_t sum = 0;
  for (uint64_t i = 0; i < n; i++)
    sum += p[i];
  CHECK(sum == (int64_t)(n * (n + 1) / 2), "sum %lld of %llu elements", (long long)sum,
        (unsigned long long)n);
  atomic_fetch_add(&sums_ok, 1);
}

static void overwriter(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  ((int64_t *)depv[0].ptr)[0] = -1;
  ((int64_t *)depv[1].ptr)[0] = -1;
  atomic_store(&write_ok, 1);
}

static void arts_main(int argc, char **argv) {
  for (int b = 0; b < 2; b++) {
    guids[b] = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
    payloads[b] = artsDbCreateWithGuid(guids[b], lengths[b] * sizeof(int64_t));
  }
  for (uint64_t b = 0; b < 2; b++) {
    atomic_store(&writes_ok, 0);
    artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    for (uint64_t k = 0; k < WRITERS; k++) {
      uint64_t params[2] = {b, k};
      /* half through artsRecordDep, half through runs */
      if (k % 2) {
        artsGuid_t t = artsEdtCreateWithEpoch(writer, (uint32_t)k, 2, params, 1, e);
        artsRecordDep(guids[b], t, 0, ARTS_DB_CONCURRENT_STABLE);
      } else {
        artsDbRun run = {&guids[b], 1, 1, 0, 0, ARTS_DB_CONCURRENT_STABLE};
        artsEdtCreateWithDbs(writer, (uint32_t)k, 2, params, 1, e, 1, &run);
      }
    }
    artsWaitOnHandle(e);
    CHECK(atomic_load(&writes_ok) == WRITERS, "%d writes", atomic_load(&writes_ok));
    e = artsInitializeAndStartEpoch(NULL_GUID, 0);
    artsDbRun run = {&guids[b], 1, 1, 0, 0, ARTS_DB_READ};
    artsEdtCreateWithDbs(summer, 1, 1, &b, 1, e, 1, &run);
    artsWaitOnHandle(e);
    CHECK(atomic_load(&sums_ok) == (int)b + 1, "the sum did not run");
    printf("stable concurrent writes: %d tasks wrote their parts of %llu elements\n", WRITERS,
           (unsigned long long)lengths[b]);
  }

  /* A holder left behind by either path would keep this WRITE waiting (a deadlock report). */
  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsDbRun runs[2] = {{&guids[0], 1, 1, 0, 0, ARTS_DB_WRITE}, {&guids[1], 1, 1, 0, 1, ARTS_DB_WRITE}};
  artsEdtCreateWithDbs(overwriter, 2, 0, NULL, 2, e, 2, runs);
  artsWaitOnHandle(e);
  CHECK(atomic_load(&write_ok) && payloads[0][0] == -1 && payloads[1][0] == -1,
        "the write did not run");
  printf("a write after the stable concurrent writes ran\n");
  artsDbDestroy(guids[0]);
  artsDbDestroy(guids[1]);
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
