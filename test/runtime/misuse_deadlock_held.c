/* A task that holds a datablock and waits on an epoch whose task needs that datablock can
   never finish: reported as a deadlock that names the datablock. */
// EXPECT-EXIT: 2
// EXPECT-STDERR: 1 dependence(s) wait behind a generation of 1 task(s) that has not been released
// EXPECT-STDERR: carts runtime: error: deadlock: all
#define _DEFAULT_SOURCE
#include "check.h"

#include <stdlib.h>

static artsGuid_t block;

static void inner(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  printf("FAILED: inner ran while the outer task held the block\n");
}

static void outer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsGuid_t t = artsEdtCreate(inner, 0, 0, NULL, 1);
  artsRecordDep(block, t, 0, ARTS_DB_WRITE);
  artsWaitOnHandle(epoch);
}

static void arts_main(int argc, char **argv) {
  block = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  artsDbCreateWithGuid(block, 8);
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsGuid_t t = artsEdtCreate(outer, 0, 0, NULL, 1);
  artsRecordDep(block, t, 0, ARTS_DB_WRITE);
  artsWaitOnHandle(epoch);
  printf("FAILED: the wait returned\n");
}

int main(int argc, char **argv) {
  setenv("deadlockTimeout", "0.3", 1);
  artsSetEntryPoints(arts_main, NULL, NULL);
  artsRT(argc, argv);
  printf("FAILED: artsRT returned\n");
  return 0;
}
