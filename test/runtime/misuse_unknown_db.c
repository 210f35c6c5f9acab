/* A dependence on a datablock GUID that was never reserved is reported, from inside a task. */
// EXPECT-EXIT: 2
// EXPECT-STDERR: carts runtime: error: artsRecordDep: unknown datablock (never reserved) (guid 0x0900000000123456)
#include "check.h"

static void never(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {}

static void wire(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  artsGuid_t t = artsEdtCreate(never, 0, 0, NULL, 1);
  artsRecordDep((artsGuid_t)0x0900000000123456ull, t, 0, ARTS_DB_READ);
}

static void arts_main(int argc, char **argv) {
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsEdtCreate(wire, 0, 0, NULL, 0);
  artsWaitOnHandle(epoch);
  printf("not reached\n");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
