/* ARTS_DB_CONCURRENT: a run of consecutive CONCURRENT acquires of one datablock is one
   generation (its tasks run together, each writing its own elements), ordered against READ
   and WRITE generations like a writer. Readers and CONCURRENT tasks recorded on an idle
   datablock join the generation that is already running. */
// EXPECT: joined the running generation: READ, CONCURRENT
// EXPECT: reader saw every concurrent write: sum 2080
// EXPECT: concurrent tasks saw the write before them: 64 tasks
// EXPECT: concurrent tasks waited for the reader: 64 tasks
// EXPECT: a write between two concurrent runs splits them: 8 + 8
#include "check.h"

#define N 64

static artsGuid_t array_guid;
static int64_t *array;
static atomic_int phase1_ok, phase3_ok, reader_done, running_together, second_run_ok;
static atomic_int in_first_run;

static void init_writer(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *a = depv[0].ptr;
  sleep_us(2000);
  for (int i = 0; i < N; i++)
    a[i] = 1;
}

static void add_index(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t i = (int64_t)paramv[0];
  int64_t *a = depv[0].ptr;
  CHECK(depv[0].mode == ARTS_DB_CONCURRENT, "mode %u", depv[0].mode);
  CHECK(a[i] == 1, "element %lld is %lld: ran before the write", (long long)i, (long long)a[i]);
  /* With two workers, two tasks of one generation must be able to run at once: the first two
     wait (bounded) for each other. */
  if (artsGetTotalWorkers() >= 2 && i < 2) {
    atomic_fetch_add(&running_together, 1);
    double until = seconds_now() + 5;
    while (atomic_load(&running_together) < 2 && seconds_now() < until)
      ;
    CHECK(atomic_load(&running_together) >= 2, "CONCURRENT tasks of one generation did not overlap");
  }
  a[i] += i;
  atomic_fetch_add(&phase1_ok, 1);
}

static void sum_reader(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  const int64_t *a = depv[0].ptr;
  int64_t sum = 0;
  for (int i = 0; i < N; i++)
    sum += a[i];
  printf("reader saw every concurrent write: sum %lld\n", (long long)sum);
  fflush(stdout);
  sleep_us(2000);
  atomic_store(&reader_done, 1);
}

static void after_reader(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  CHECK(atomic_load(&reader_done), "CONCURRENT task started while the reader held the block");
  atomic_fetch_add(&phase3_ok, 1);
}

/* Second pattern: CONCURRENT x8, WRITE, CONCURRENT x8: the write sees all of the first run
   and none of the second. */
static void first_run(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *a = depv[0].ptr;
  a[paramv[0]] = 10;
  atomic_fetch_add(&in_first_run, 1);
}

static void middle_write(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *a = depv[0].ptr;
  CHECK(atomic_load(&in_first_run) == 8, "write started after %d of 8", atomic_load(&in_first_run));
  for (int i = 0; i < 16; i++)
    CHECK(a[i] == (i < 8 ? 10 : 0), "element %d is %lld at the write", i, (long long)a[i]);
  sleep_us(1000);
  for (int i = 0; i < 16; i++)
    a[i] += 1;
}

static void second_run(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  int64_t *a = depv[0].ptr;
  int64_t i = (int64_t)paramv[0];
  CHECK(a[i] == 1, "second run element %lld is %lld", (long long)i, (long long)a[i]);
  atomic_fetch_add(&second_run_ok, 1);
}

/* Two tasks of one generation wait (bounded) for each other: they only both finish if they
   run at the same time, which needs two workers. */
static atomic_int meeting[2];
static void meet(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  atomic_int *m = &meeting[paramv[0]];
  atomic_fetch_add(m, 1);
  double until = seconds_now() + 5;
  while (atomic_load(m) < 2 && seconds_now() < until)
    ;
  CHECK(atomic_load(m) == 2, "mode %u: the second task did not join the running generation",
        depv[0].mode);
}

static artsGuid_t task_on(artsEdt_t fn, uint64_t param, uint32_t mode) {
  artsGuid_t t = artsEdtCreate(fn, 0, 1, &param, 1);
  artsRecordDep(array_guid, t, 0, mode);
  return t;
}

static void arts_main(int argc, char **argv) {
  array_guid = artsReserveGuidRoute(ARTS_DB_WRITE, 0);
  array = artsDbCreateWithGuid(array_guid, N * sizeof *array);
  artsGuid_t epoch;
  if (artsGetTotalWorkers() >= 2) {
    uint32_t modes[2] = {ARTS_DB_READ, ARTS_DB_CONCURRENT};
    for (uint64_t k = 0; k < 2; k++) {
      epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
      task_on(meet, k, modes[k]);
      sleep_us(1000); /* the first one is running before the second is recorded */
      task_on(meet, k, modes[k]);
      artsWaitOnHandle(epoch);
    }
  }
  printf("joined the running generation: READ, CONCURRENT\n");

  epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  task_on(init_writer, 0, ARTS_DB_WRITE);
  for (uint64_t i = 0; i < N; i++)
    task_on(add_index, i, ARTS_DB_CONCURRENT);
  task_on(sum_reader, 0, ARTS_DB_READ);
  for (uint64_t i = 0; i < N; i++)
    task_on(after_reader, i, ARTS_DB_CONCURRENT);
  artsWaitOnHandle(epoch);
  printf("concurrent tasks saw the write before them: %d tasks\n", atomic_load(&phase1_ok));
  printf("concurrent tasks waited for the reader: %d tasks\n", atomic_load(&phase3_ok));

  for (int i = 0; i < N; i++)
    array[i] = 0;
  epoch = artsInitializeAndStartEpoch(NULL_GUID, 0);
  for (uint64_t i = 0; i < 8; i++)
    task_on(first_run, i, ARTS_DB_CONCURRENT);
  task_on(middle_write, 0, ARTS_DB_WRITE);
  for (uint64_t i = 8; i < 16; i++)
    task_on(second_run, i, ARTS_DB_CONCURRENT);
  artsWaitOnHandle(epoch);
  printf("a write between two concurrent runs splits them: %d + %d\n", atomic_load(&in_first_run),
         atomic_load(&second_run_ok));
  artsShutdown();
}

ARTS_TEST_MAIN(arts_main, NULL, NULL)
