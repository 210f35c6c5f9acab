/* A run that can never finish (a slot nobody satisfies, a datablock never created) is
   reported once every worker has been idle for deadlockTimeout seconds, instead of hanging. */
// EXPECT: waiting on tasks that cannot run
// EXPECT-EXIT: 2
// EXPECT-STDERR: carts runtime: note: task 0x01
// EXPECT-STDERR: never ran: slot 1 was never satisfied (1 of its 2 slots are not)
// EXPECT-STDERR: was never created; 1 dependence(s) and 0 put(s) wait for it
// EXPECT-STDERR: carts runtime: error: deadlock: all
// EXPECT-STDERR: (2 tasks with unsatisfied slots, 1 dependences or puts queued on datablocks) (guid 0x
#define _DEFAULT_SOURCE
#include "check.h"

#include <stdlib.h>

static void never(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  printf("FAILED: a blocked task ran\n");
}

static void arts_main(int argc, char **argv) {
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  artsGuid_t half = artsEdtCreate(never, 0, 0, NULL, 2);
  artsSignalEdtNull(half, 0);
  artsGuid_t uncreated = artsReserveGuidRoute(ARTS_DB_READ, 0);
  artsGuid_t waits_for_db = artsEdtCreate(never, 0, 0, NULL, 1);
  artsRecordDep(uncreated, waits_for_db, 0, ARTS_DB_READ);
  artsEdtCreate(never, 0, 0, NULL, 1); /* nothing at all */
  printf("waiting on tasks that cannot run\n");
  fflush(stdout);
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
