/* Satisfying one slot twice is reported. */
// EXPECT-EXIT: 2
// EXPECT-STDERR: carts runtime: error: artsSignalEdtNull: slot 1 is already satisfied (guid 0x01
#include "check.h"

static void never(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {}

static void arts_main(int argc, char **argv) {
  artsGuid_t t = artsEdtCreate(never, 0, 0, NULL, 3);
  artsSignalEdtNull(t, 1);
  artsSignalEdtNull(t, 1);
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
