/* A payload of 2 MiB and more is faulted in when it is made with populate=1 (the default on
   several nodes), and left to its first writer with populate=0 (the default on one node,
   which this program runs as). test_runtime.py runs it again with populate=1. */
// EXPECT: at creation: no page resident
// EXPECT: after the writer: every page resident
#include "check.h"

#include <string.h>
#include <sys/mman.h>

#define BYTES ((size_t)4 << 20)

static artsGuid_t big;

/* "no page", "every page" or "k of n pages" of [p, p + BYTES) in memory. */
static void report(const char *when, const void *p) {
  const size_t page = 4096;
  uintptr_t start = (uintptr_t)p & ~(uintptr_t)(page - 1);
  size_t pages = ((uintptr_t)p + BYTES - start + page - 1) / page;
  unsigned char *in = malloc(pages);
  CHECK(in && mincore((void *)start, pages * page, in) == 0, "mincore failed");
  size_t resident = 0;
  for (size_t i = 0; i < pages; i++)
    resident += in[i] & 1;
  free(in);
  if (resident == 0)
    printf("%s: no page resident\n", when);
  else if (resident == pages)
    printf("%s: every page resident\n", when);
  else
    printf("%s: %zu of %zu pages resident\n", when, resident, pages);
}

static void writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  memset(depv[0].ptr, 3, BYTES);
}

static void arts_main(int argc, char **argv) {
  big = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  void *payload = artsDbCreateWithGuid(big, BYTES);
  CHECK(payload != NULL, "no payload");
  report("at creation", payload);
  artsGuid_t e = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsGuid_t t = artsEdtCreateWithEpoch(writer, 0, 0, NULL, 1, e);
  artsRecordDep(big, t, 0, ARTS_DB_WRITE);
  artsWaitOnHandle(e);
  report("after the writer", payload);
  artsDbDestroy(big);
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
