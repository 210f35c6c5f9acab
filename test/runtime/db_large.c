/* Payloads of 2 MiB and more have a mapping of their own (huge pages where the kernel gives
   them): zero on creation like smaller ones, writable to the last byte, and unmapped when a
   task that still holds the datablock at its destruction releases it. The same program runs
   with hugePages=0 through calloc. */
// EXPECT: a 3 MiB payload: zero, written to its last byte
// EXPECT: destroyed while held, freed at the release
#include "check.h"

#include <stdint.h>
#include <string.h>

#define BYTES ((size_t)3 << 20)

static artsGuid_t big;
static atomic_int written;

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
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
