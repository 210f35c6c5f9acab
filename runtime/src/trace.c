/* trace=FILE: one CSV row per task run, written when the run ends.

   Each worker keeps its rows in a buffer of its own (no shared line is touched on the task
   path). Before the workers start, the path is checked by opening it for appending (a path
   that cannot be written stops the run before the program does anything; a file the check
   created is removed again). When the run ends, the rows go to a temporary file beside it,
   renamed over it once complete, so a run that dies leaves no trace file, partial or empty
   (a device or a pipe is written in place). Times are microseconds since artsRT started.
   Columns:

     task     the task function's name (registered by a JIT host, carts_trace.h, or the
              executable's symbol), or its address where neither is known
     worker   the worker that ran it
     routed   the worker its route asked for (-1: any)
     taken    how the worker got it: main (the program's first task), own (its deque),
              mail (its mailbox), injected (from a thread that is not a worker), stolen
              (another worker's deque), mail-stolen (another worker's mailbox)
     ready    when its last dependence was satisfied (pushed to be run)
     start, end   when its code started and returned (what its end releases, and the
              end of its epoch, come after `end`)
*/
#define _GNU_SOURCE
#include "internal.h"
#include "carts_trace.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int tracing_on, in_place;
static char trace_name[RT_TRACE_PATH_MAX + 16];
static char staged_name[RT_TRACE_PATH_MAX + 48];
static uint64_t trace_origin;

static const char *const taken_names[] = {"main", "own", "mail", "injected", "stolen",
                                          "mail-stolen"};

int rt_trace_open(const rt_config *cfg) {
  tracing_on = 0;
  if (!cfg->trace_path[0])
    return 0;
  /* several nodes are several processes: one file each */
  if (cfg->node_count > 1)
    snprintf(trace_name, sizeof trace_name, "%s.node%u", cfg->trace_path, cfg->node);
  else
    snprintf(trace_name, sizeof trace_name, "%s", cfg->trace_path);
  struct stat st;
  int existed = stat(trace_name, &st) == 0;
  FILE *probe = fopen(trace_name, "a");
  if (!probe) {
    fprintf(stderr, "carts runtime: error: cannot write the trace %s: %s\n", trace_name,
            strerror(errno));
    return -1;
  }
  fclose(probe);
  if (!existed)
    remove(trace_name);
  in_place = existed && !S_ISREG(st.st_mode);
  tracing_on = 1;
  trace_origin = rt_now_ns();
  return 0;
}

void rt_trace_record(rt_worker *w, const rt_edt *t, rt_taken taken, uint64_t start, uint64_t end) {
  if (w->trace_len == w->trace_cap) {
    size_t cap = w->trace_cap ? 2 * w->trace_cap : 4096;
    rt_trace_event *grown = realloc(w->trace, cap * sizeof *grown);
    if (!grown)
      return; /* the trace misses rows rather than stopping the program */
    w->trace = grown;
    w->trace_cap = cap;
  }
  rt_trace_event *e = &w->trace[w->trace_len++];
  e->fn = t->fn;
  e->ready = t->ready_ns ? t->ready_ns : start;
  e->start = start;
  e->end = end;
  e->routed = t->worker;
  e->taken = (uint8_t)taken;
}

/* Names the JIT host registered (carts_trace.h), kept for the life of the process. */
typedef struct named_fn {
  const void *fn;
  char *name;
} named_fn;
static named_fn *names;
static size_t names_len, names_cap;
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

void cartsTraceName(const void *fn, const char *name) {
  if (!fn || !name)
    return;
  char *copy = strdup(name);
  if (!copy)
    return;
  pthread_mutex_lock(&names_lock);
  for (size_t i = 0; i < names_len; i++)
    if (names[i].fn == fn) {
      free(names[i].name);
      names[i].name = copy;
      copy = NULL;
      break;
    }
  if (copy && names_len == names_cap) {
    size_t cap = names_cap ? 2 * names_cap : 64;
    named_fn *grown = realloc(names, cap * sizeof *grown);
    if (grown) {
      names = grown;
      names_cap = cap;
    }
  }
  if (copy && names_len < names_cap)
    names[names_len++] = (named_fn){fn, copy};
  else
    free(copy);
  pthread_mutex_unlock(&names_lock);
}

static void name_of(artsEdt_t fn, char *out, size_t size) {
  pthread_mutex_lock(&names_lock);
  for (size_t i = 0; i < names_len; i++)
    if (names[i].fn == (const void *)(uintptr_t)fn) {
      snprintf(out, size, "%s", names[i].name);
      pthread_mutex_unlock(&names_lock);
      return;
    }
  pthread_mutex_unlock(&names_lock);
  Dl_info info;
  if (dladdr((void *)(uintptr_t)fn, &info) && info.dli_sname &&
      info.dli_saddr == (void *)(uintptr_t)fn)
    snprintf(out, size, "%s", info.dli_sname);
  else
    snprintf(out, size, "%p", (void *)(uintptr_t)fn);
}

static double micros(uint64_t ns) {
  return ns >= trace_origin ? (double)(ns - trace_origin) / 1e3 : 0.0;
}

static void free_rows(void) {
  for (uint32_t i = 0; i < rt.threads; i++) {
    free(rt.workers[i].trace);
    rt.workers[i].trace = NULL;
    rt.workers[i].trace_len = rt.workers[i].trace_cap = 0;
  }
}

int rt_trace_write(void) {
  if (!tracing_on)
    return 0;
  tracing_on = 0;
  const char *target = trace_name;
  if (!in_place) {
    snprintf(staged_name, sizeof staged_name, "%s.tmp%ld", trace_name, (long)getpid());
    target = staged_name;
  }
  FILE *trace_file = fopen(target, "w");
  if (!trace_file) {
    fprintf(stderr, "carts runtime: error: cannot write the trace %s: %s\n", trace_name,
            strerror(errno));
    free_rows();
    return -1;
  }
  int failed = fprintf(trace_file, "task,worker,routed,taken,ready,start,end\n") < 0;
  artsEdt_t last_fn = NULL;
  char name[256] = "";
  for (uint32_t i = 0; i < rt.threads; i++) {
    rt_worker *w = &rt.workers[i];
    for (size_t k = 0; k < w->trace_len && !failed; k++) {
      rt_trace_event *e = &w->trace[k];
      if (e->taken == RT_TAKEN_MAIN) {
        snprintf(name, sizeof name, "artsMain"); /* the runtime's wrapper around it */
        last_fn = NULL;
      } else if (e->fn != last_fn) {
        name_of(e->fn, name, sizeof name);
        last_fn = e->fn;
      }
      long routed = e->routed == RT_ANY_WORKER ? -1 : (long)e->routed;
      failed = fprintf(trace_file, "%s,%u,%ld,%s,%.3f,%.3f,%.3f\n", name, i, routed,
                       taken_names[e->taken], micros(e->ready), micros(e->start),
                       micros(e->end)) < 0;
    }
  }
  free_rows();
  int err = failed ? errno : 0;
  if (fclose(trace_file) != 0 && !failed) {
    failed = 1;
    err = errno;
  }
  if (!failed && !in_place && rename(staged_name, trace_name) != 0) {
    failed = 1;
    err = errno;
  }
  if (failed) {
    fprintf(stderr, "carts runtime: error: cannot write the trace %s: %s\n", trace_name,
            strerror(err));
    if (!in_place)
      remove(staged_name);
    return -1;
  }
  return 0;
}
