/* Waiting on a GUID that is not an epoch is reported and ends the process; it never hangs. */
// EXPECT-EXIT: 2
// EXPECT-STDERR: carts runtime: error: artsWaitOnHandle: not an epoch (guid 0x09
#include "check.h"

static void arts_main(int argc, char **argv) {
  artsGuid_t db = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  artsDbCreateWithGuid(db, 8);
  artsWaitOnHandle(db);
  printf("not reached\n");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
