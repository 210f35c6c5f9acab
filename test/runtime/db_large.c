/* Payloads of 2 MiB and more have a mapping of their own (huge pages where the kernel gives
   them): zero on creation like smaller ones, writable to the last byte, and unmapped when a
   task that still holds the datablock at its destruction releases it; one that CONCURRENT
   tasks write (4 KiB pages from then on) holds what each of them wrote. The same program runs
   with hugePages=0 through calloc. */
// EXPECT: a 3 MiB payload: zero, written to its last byte
// EXPECT: destroyed while held, freed at the release
// EXPECT: 4 concurrent writers filled their quarters
#include "check.h"

#include <stdint.h>
#include <string.h>

#define BYTES ((size_t)3 << 20)

static artsGuid_t big, shared;
static atomic_int written, quarters_ok;

static void writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  unsigned char *p = depv[0].ptr;
  CHECK(((uintptr_t)p & 15) == 0, "payload %p not aligned", (void *)p);
  for (size_t i = 0; i < BYTES; i += 4096)
    CHECK(p[i] == 0 && p[i + 4095] == 0, "byte %zu is not zero", i);
  memset(p, 7, BYTES);
  CHECK(p[BYTES - 1] == 7, "last byte");
  printf("a 3 MiB payload: zero, written to its last byte\n");
  atomic_store(&written, 1);
}

/* paramv: which quarter. depv: shared (CONCURRENT). */
static void quarter(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  unsigned char *p = (unsigned char *)depv[0].ptr + paramv[0] * (BYTES / 4);
  memset(p, 1 + (int)paramv[0], BYTES / 4);
}

/* depv: shared (READ), after the writers. */
static void check_quarters(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  const unsigned char *p = depv[0].ptr;
  for (size_t i = 0; i < BYTES; i += 512)
    CHECK(p[i] == 1 + i / (BYTES / 4), "byte %zu is %d", i, p[i]);
  atomic_store(&quarters_ok, 1);
}

static void arts_main(int argc, char **argv) {
  big = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  CHECK(artsDbCreateWithGuid(big, BYTES) != NULL, "no payload");
  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsGuid_t t = artsEdtCreateWithEpoch(writer, 0, 0, NULL, 1, e);
  artsRecordDep(big, t, 0, ARTS_DB_WRITE);
  artsDbDestroy(big); /* the writer holds it: freed when it releases */
  artsWaitOnHandle(e);
  CHECK(atomic_load(&written), "the writer did not run");
  printf("destroyed while held, freed at the release\n");

  shared = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  CHECK(artsDbCreateWithGuid(shared, BYTES) != NULL, "no payload");
  e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t q = 0; q < 4; q++) {
    t = artsEdtCreateWithEpoch(quarter, (uint32_t)q, 1, &q, 1, e);
    artsRecordDep(shared, t, 0, ARTS_DB_CONCURRENT);
  }
  t = artsEdtCreateWithEpoch(check_quarters, 0, 0, NULL, 1, e);
  artsRecordDep(shared, t, 0, ARTS_DB_READ);
  artsWaitOnHandle(e);
  CHECK(atomic_load(&quarters_ok), "the reader did not run");
  artsDbDestroy(shared);
  printf("4 concurrent writers filled their quarters\n");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
