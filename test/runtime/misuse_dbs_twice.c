/* artsEdtCreateWithDbs: two runs naming the same slot are reported before anything runs. */
// EXPECT: created one
// EXPECT-EXIT: 2
// EXPECT-STDERR: carts runtime: error: artsEdtCreateWithDbs: slot 1 is named twice (guid 0x01
#include "check.h"

static void never(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {}

static void arts_main(int argc, char **argv) {
  artsGuid_t db = artsReserveGuidRoute(ARTS_DB_READ, 0);
  artsDbCreateWithGuid(db, 8);
  artsGuid_t two[2] = {db, db};
  artsDbRun ok = {two, 1, 2, 0, 0, ARTS_DB_READ};
  artsEdtCreateWithDbs(never, 0, 0, NULL, 2, NULL_GUID, 1, &ok);
  printf("created one\n");
  fflush(stdout);
  artsDbRun overlap[2] = {{two, 1, 2, 0, 0, ARTS_DB_READ}, {two, 1, 1, 0, 1, ARTS_DB_READ}};
  artsEdtCreateWithDbs(never, 0, 0, NULL, 3, NULL_GUID, 2, overlap);
  printf("not reached\n");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
