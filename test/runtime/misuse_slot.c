/* A slot past the task's dependence count is reported (a second signal of a satisfied slot
   would be too). */
// EXPECT: slot 0 signalled
// EXPECT-EXIT: 2
// EXPECT-STDERR: carts runtime: error: artsSignalEdtValue: slot 2 out of range (the task has 2 dependences) (guid 0x01
#include "check.h"

static void never(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {}

static void arts_main(int argc, char **argv) {
  artsGuid_t t = artsEdtCreate(never, 0, 0, NULL, 2);
  artsSignalEdtValue(t, 0, 1);
  printf("slot 0 signalled\n");
  artsSignalEdtValue(t, 2, 1);
  printf("not reached\n");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
