/* Configuration: arts.cfg named by artsConfig, else ./arts.cfg, else defaults (threads =
   online cores); environment variables override keys; unknown keys and other sections are
   ignored; a malformed file or value makes artsRT print why and return non-zero. */
// EXPECT: artsConfig file: 3 workers
// EXPECT: environment override: 2 workers
// EXPECT: malformed line: artsRT returned 1
// EXPECT: bad value: artsRT returned 1
// EXPECT: stackSize=16m deadlockTimeout=0.5: ran
// EXPECT: bad deadlockTimeout: artsRT returned 1
// EXPECT: missing artsConfig file: artsRT returned 1
// EXPECT: several nodes: artsRT returned 1
// EXPECT: no file: one worker per online core
// EXPECT: ./arts.cfg: 2 workers
// EXPECT-STDERR: :2: expected key=value, got 'threads 4'
// EXPECT-STDERR: threads must be an integer in 1..4096, got 'zero'
// EXPECT-STDERR: cannot read the configuration
// EXPECT-STDERR: deadlockTimeout must be a number of seconds (0 turns the check off), got 'soon'
// EXPECT-STDERR: nodeCount=2
#define _DEFAULT_SOURCE
#include "check.h"

#include <stdlib.h>
#include <string.h>

static uint32_t workers_seen;

static void record_workers(int argc, char **argv) {
  workers_seen = artsGetTotalWorkers();
  artsShutdown();
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f, "cannot write %s", path);
  fputs(text, f);
  fclose(f);
}

static int run(int argc, char **argv) {
  workers_seen = 0;
  artsSetEntryPoints(record_workers, NULL, NULL);
  return artsRT(argc, argv);
}

int main(int argc, char **argv) {
  char dir[] = "/tmp/cartsrt-configXXXXXX";
  CHECK(mkdtemp(dir), "mkdtemp");
  CHECK(chdir(dir) == 0, "chdir");
  unsetenv("threads");
  unsetenv("nodeCount");
  unsetenv("stackSize");
  unsetenv("deadlockTimeout");

  write_file("good.cfg", "# a comment\n"
                         "[ARTS]\n"
                         "threads = 3   # workers\n"
                         "nodeCount=1\n"
                         "launcher=ssh\n"
                         "someFutureKey=anything at all\n"
                         "\n"
                         "[Other]\n"
                         "threads=7\n");
  setenv("artsConfig", "good.cfg", 1);
  CHECK(run(argc, argv) == 0 && workers_seen == 3, "workers %u", workers_seen);
  printf("artsConfig file: %u workers\n", workers_seen);

  setenv("threads", "2", 1);
  CHECK(run(argc, argv) == 0 && workers_seen == 2, "workers %u", workers_seen);
  printf("environment override: %u workers\n", workers_seen);
  unsetenv("threads");

  write_file("malformed.cfg", "[ARTS]\nthreads 4\n");
  setenv("artsConfig", "malformed.cfg", 1);
  int rc = run(argc, argv);
  CHECK(rc != 0 && workers_seen == 0, "malformed file accepted");
  printf("malformed line: artsRT returned %d\n", rc);

  write_file("value.cfg", "[ARTS]\nthreads=zero\n");
  setenv("artsConfig", "value.cfg", 1);
  rc = run(argc, argv);
  CHECK(rc != 0 && workers_seen == 0, "bad value accepted");
  printf("bad value: artsRT returned %d\n", rc);

  write_file("sizes.cfg", "[ARTS]\nstackSize=16m\ndeadlockTimeout=0.5\n");
  setenv("artsConfig", "sizes.cfg", 1);
  CHECK(run(argc, argv) == 0 && workers_seen > 0, "suffixed stack size refused");
  printf("stackSize=16m deadlockTimeout=0.5: ran\n");

  setenv("deadlockTimeout", "soon", 1);
  rc = run(argc, argv);
  CHECK(rc != 0, "deadlockTimeout=soon accepted");
  printf("bad deadlockTimeout: artsRT returned %d\n", rc);
  unsetenv("deadlockTimeout");

  setenv("artsConfig", "does-not-exist.cfg", 1);
  rc = run(argc, argv);
  CHECK(rc != 0, "missing file accepted");
  printf("missing artsConfig file: artsRT returned %d\n", rc);

  unsetenv("artsConfig");
  setenv("nodeCount", "2", 1);
  rc = run(argc, argv);
  CHECK(rc != 0, "nodeCount=2 accepted");
  printf("several nodes: artsRT returned %d\n", rc);
  unsetenv("nodeCount");

  CHECK(run(argc, argv) == 0, "defaults failed");
  CHECK(workers_seen == (uint32_t)sysconf(_SC_NPROCESSORS_ONLN), "workers %u", workers_seen);
  printf("no file: one worker per online core\n");

  write_file("arts.cfg", "[ARTS]\nthreads=2\n");
  CHECK(run(argc, argv) == 0 && workers_seen == 2, "workers %u", workers_seen);
  printf("./arts.cfg: %u workers\n", workers_seen);

  const char *files[] = {"good.cfg", "malformed.cfg", "value.cfg", "sizes.cfg", "arts.cfg"};
  for (int i = 0; i < 5; i++)
    unlink(files[i]);
  CHECK(chdir("/") == 0 && rmdir(dir) == 0, "cleanup of %s", dir);
  return 0;
}
