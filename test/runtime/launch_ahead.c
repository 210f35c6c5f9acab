/* A creator that launches 400k tasks far ahead of their dependences (each writes the
   datablock the previous one wrote): with one worker nothing would run before the wait, and
   every task would be held at once (over 200 MB). The creator runs ready tasks itself once
   64Ki are unfinished, so the peak stays bounded. Order is kept: each task checks that it
   comes right after the previous one. */
// EXPECT: tasks run in order: 400000
// EXPECT: peak memory bounded: yes
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TASKS 400000

static void next(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  long *count = depv[0].ptr;
  CHECK(*count == (long)paramv[0], "task %lu ran after %ld", (unsigned long)paramv[0], *count);
  (*count)++;
}

/* Peak resident memory of this program in KiB: VmHWM, which (unlike getrusage's ru_maxrss,
   inherited across exec) starts with the program. */
static long peak_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  CHECK(f != NULL, "cannot read /proc/self/status");
  char line[256];
  long kib = -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0)
      kib = strtol(line + 6, NULL, 10);
  fclose(f);
  CHECK(kib > 0, "no VmHWM in /proc/self/status");
  return kib;
}

static void arts_main(int argc, char **argv) {
  artsGuid_t db = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  long *count = artsDbCreateWithGuid(db, sizeof(long));
  *count = 0;
  artsGuid_t epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t i = 0; i < TASKS; i++) {
    artsGuid_t t = artsEdtCreate(next, 0, 1, &i, 1);
    artsRecordDep(db, t, 0, ARTS_DB_WRITE);
  }
  artsWaitOnHandle(epoch);
  printf("tasks run in order: %ld\n", *count);
  /* 400k tasks of 512 bytes held at once would be about 200 MB */
  printf("peak memory bounded: %s\n", peak_kib() < 120 * 1024 ? "yes" : "no");
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
