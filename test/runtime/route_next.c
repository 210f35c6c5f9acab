/* A chain of writers of one datablock, every one asking for the same worker. Each becomes
   ready while the one before it ends, on the worker that ran that one, and runs there next:
   an idle worker polling for work (here the main task's, waiting on the epoch) never takes
   it, so the whole chain runs on one worker (the one asked for, or the one that took the first
   link while that one slept: the route follows it). */
// EXPECT: links run in order: 200
// EXPECT: chain on one worker: yes
#include "check.h"

#define LINKS 200

static int ran_on[LINKS];

static void link_task(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t i = (int64_t)paramv[0];
  int64_t *next = depv[0].ptr;
  CHECK(*next == i, "link %lld ran when link %lld was due", (long long)i, (long long)*next);
  ran_on[i] = (int)artsGetCurrentWorker();
  sleep_us(30); /* long enough for the idle worker to look for work many times */
  *next = i + 1;
}

static void arts_main(int argc, char **argv) {
  artsGuid_t db = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  int64_t *next = artsDbCreateWithGuid(db, sizeof *next);
  *next = 0;
  uint32_t workers = artsGetTotalWorkers();
  uint32_t asked = workers > 1 ? 1 : 0;
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t i = 0; i < LINKS; i++) {
    artsGuid_t t = artsEdtCreate(link_task, 1 + asked, 1, &i, 1);
    artsRecordDep(db, t, 0, ARTS_DB_WRITE);
  }
  artsWaitOnHandle(epoch);
  printf("links run in order: %lld\n", (long long)*next);
  int same = 1;
  for (int i = 1; i < LINKS; i++)
    if (ran_on[i] != ran_on[0])
      same = 0;
  printf("chain on one worker: %s\n", same ? "yes" : "no");
  artsDbDestroy(db);
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
