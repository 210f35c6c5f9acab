/* ARTS_DB_WRITE_STABLE: each writer's slot gets its own datablock's payload, seen as a WRITE,
   at once; a READ of every block afterwards sees all the writes; the writers' returns release
   nothing that a later WRITE would wait for. One block is 3 MiB (a mapping of its own). */
// EXPECT: stable writes: 64 tasks wrote their own blocks
// EXPECT: a read after the stable writes saw 64 blocks
// EXPECT: a write after the stable writes ran
#include "check.h"

#define WRITERS 64
#define SMALL 8            /* int64 elements of a small block */
#define LARGE (3u << 17)   /* 3 MiB of int64: the last block */

static artsGuid_t guids[WRITERS];
static int64_t *payloads[WRITERS];
static atomic_int writes_ok, read_ok, write_ok;

static uint64_t length(uint64_t k) { return k == WRITERS - 1 ? LARGE : SMALL; }

static void writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  uint64_t k = paramv[0];
  CHECK(depv[0].guid == guids[k] && depv[0].mode == ARTS_DB_WRITE && depv[0].ptr == payloads[k],
        "writer %llu: guid %llx mode %u", (unsigned long long)k,
        (unsigned long long)depv[0].guid, depv[0].mode);
  int64_t *p = depv[0].ptr;
  for (uint64_t i = 0; i < length(k); i++)
    p[i] = (int64_t)(k + i);
  atomic_fetch_add(&writes_ok, 1);
}

static void reader(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  for (uint64_t k = 0; k < WRITERS; k++) {
    const int64_t *p = depv[k].ptr;
    uint64_t n = length(k);
    CHECK(p[0] == (int64_t)k && p[n - 1] == (int64_t)(k + n - 1), "block %llu: %lld .. %lld",
          (unsigned long long)k, (long long)p[0], (long long)p[n - 1]);
  }
  atomic_store(&read_ok, 1);
}

static void overwriter(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  for (uint64_t k = 0; k < WRITERS; k++)
    ((int64_t *)depv[k].ptr)[0] = -1;
  atomic_store(&write_ok, 1);
}

static void arts_main(int argc, char **argv) {
  for (uint64_t k = 0; k < WRITERS; k++) {
    guids[k] = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
    payloads[k] = artsDbCreateWithGuid(guids[k], length(k) * sizeof(int64_t));
  }
  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t k = 0; k < WRITERS; k++) {
    /* half through artsRecordDep, half through runs */
    if (k % 2) {
      artsGuid_t t = artsEdtCreateWithEpoch(writer, (uint32_t)k, 1, &k, 1, e);
      artsRecordDep(guids[k], t, 0, ARTS_DB_WRITE_STABLE);
    } else {
      artsDbRun run = {&guids[k], 1, 1, 0, 0, ARTS_DB_WRITE_STABLE};
      artsEdtCreateWithDbs(writer, (uint32_t)k, 1, &k, 1, e, 1, &run);
    }
  }
  artsWaitOnHandle(e);
  CHECK(atomic_load(&writes_ok) == WRITERS, "%d writes", atomic_load(&writes_ok));
  printf("stable writes: %d tasks wrote their own blocks\n", WRITERS);

  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsDbRun reads = {guids, 1, WRITERS, WRITERS, 0, ARTS_DB_READ};
  artsEdtCreateWithDbs(reader, 1, 0, NULL, WRITERS, e, 1, &reads);
  artsWaitOnHandle(e);
  CHECK(atomic_load(&read_ok), "the read did not run");
  printf("a read after the stable writes saw %d blocks\n", WRITERS);

  /* A holder left behind by either path would keep this WRITE waiting (a deadlock report). */
  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsDbRun writes = {guids, 1, WRITERS, WRITERS, 0, ARTS_DB_WRITE};
  artsEdtCreateWithDbs(overwriter, 2, 0, NULL, WRITERS, e, 1, &writes);
  artsWaitOnHandle(e);
  CHECK(atomic_load(&write_ok) && payloads[0][0] == -1 && payloads[WRITERS - 1][0] == -1,
        "the write did not run");
  printf("a write after the stable writes ran\n");
  for (uint64_t k = 0; k < WRITERS; k++)
    artsDbDestroy(guids[k]);
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
