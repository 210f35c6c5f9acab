/* Shared by the runtime test programs (test/python/test_runtime.py compiles each *.c here).
   Each program states what a passing run prints in comment directives:
     // EXPECT: <line>          a line stdout must contain, in this order
     // EXPECT-EXIT: <status>   the exit status (default 0)
     // EXPECT-STDERR: <text>   text stderr must contain */
#ifndef CARTS_RUNTIME_TEST_CHECK_H
#define CARTS_RUNTIME_TEST_CHECK_H

#include "arts.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* Fail the run from any thread: tasks run on workers, so no exit() (atexit under them). */
#define CHECK(cond, ...)                                                                      \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      printf("FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond);                                \
      printf(__VA_ARGS__);                                                                    \
      printf("\n");                                                                           \
      fflush(stdout);                                                                         \
      _exit(1);                                                                               \
    }                                                                                         \
  } while (0)

static inline void sleep_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, NULL);
}

static inline double seconds_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The usual program shape: main sets the entry points and runs artsRT. */
#define ARTS_TEST_MAIN(artsMain, initPerNode, initPerWorker)                                  \
  int main(int argc, char **argv) {                                                           \
    artsSetEntryPoints(artsMain, initPerNode, initPerWorker);                                 \
    int rc = artsRT(argc, argv);                                                              \
    CHECK(rc == 0, "artsRT returned %d", rc);                                                 \
    return 0;                                                                                 \
  }

#endif
