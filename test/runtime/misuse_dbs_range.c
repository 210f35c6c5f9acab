/* artsEdtCreateWithDbs: a run past the task's dependence count is reported before the task
   exists (the runs are checked before any GUID in them is looked at). */
// EXPECT: checked
// EXPECT-EXIT: 2
// EXPECT-STDERR: carts runtime: error: artsEdtCreateWithDbs: run 1: slots 2.. of 1 x 2 datablocks are out of range (the task has 3 dependences)
#include "check.h"

static void never(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {}

static void arts_main(int argc, char **argv) {
  static const artsGuid_t unused[2];
  printf("checked\n");
  fflush(stdout);
  artsDbRun runs[2] = {{unused, 1, 2, 0, 0, ARTS_DB_READ}, {unused, 1, 2, 0, 2, ARTS_DB_WRITE}};
  artsEdtCreateWithDbs(never, 0, 0, NULL, 3, NULL_GUID, 2, runs);
  printf("not reached\n");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
