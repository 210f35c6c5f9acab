/* The OpenMP host routines that need more than a constant (the front end's omp.h declares
   them all). Inside a parallel region the compiler rewrites the routines that describe the
   team (omp_get_thread_num, omp_get_level, ...) into runtime queries; what reaches this file
   is a call from the initial thread, or a routine whose answer does not depend on the team.

   ICVs are process-wide words (each node has its own; host code runs on node 0). Locks are
   words of the program's memory, taken with atomic operations, so they exclude each other
   among the threads of one process. Every allocator is the C library's heap, honouring the
   alignment trait. There is no device: the host is the initial device (number 0, with no
   others). */
#define _GNU_SOURCE /* gettid, malloc_usable_size */
#include "internal.h"

#include <limits.h>
#include <malloc.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OMP_API __attribute__((visibility("default")))

/* ------------------------------------------------------------------ ICVs */

static _Atomic int dyn_var;             /* omp_set_dynamic */
static _Atomic int max_active_levels = 1; /* one level is supported */
static _Atomic int sched_kind = 1;      /* omp_sched_static */
static _Atomic int sched_chunk;         /* 0: the default chunk */
static _Atomic int default_device;
static _Atomic int num_teams_var = 1;
static _Atomic int teams_thread_limit;
static _Atomic uintptr_t default_allocator = 1; /* omp_default_mem_alloc */

static pthread_mutex_t format_lock = PTHREAD_MUTEX_INITIALIZER;
static char *affinity_format; /* NULL: the default below */
static const char default_format[] = "level %L thread %i affinity %A";

OMP_API void omp_set_dynamic(int dynamic_threads) { dyn_var = dynamic_threads != 0; }
OMP_API int omp_get_dynamic(void) { return dyn_var; }
OMP_API int omp_get_cancellation(void) { return 0; }

OMP_API int omp_get_supported_active_levels(void) { return 1; }
OMP_API void omp_set_max_active_levels(int max_levels) {
  if (max_levels >= 0) /* a negative value is ignored; above the supported levels: clamped */
    max_active_levels = max_levels > 1 ? 1 : max_levels;
}
OMP_API int omp_get_max_active_levels(void) { return max_active_levels; }
/* Deprecated: nesting is max-active-levels above one, which is not supported. */
OMP_API void omp_set_nested(int nested) { omp_set_max_active_levels(nested ? INT_MAX : 1); }
OMP_API int omp_get_nested(void) { return max_active_levels > 1; }

OMP_API void omp_set_schedule(int kind, int chunk_size) {
  int base = kind & ~(int)0x80000000u;
  if (base < 1 || base > 4)
    return;
  sched_kind = kind;
  sched_chunk = chunk_size < 1 ? 0 : chunk_size;
}
OMP_API void omp_get_schedule(int *kind, int *chunk_size) {
  *kind = sched_kind;
  *chunk_size = sched_chunk;
}

/* The initial thread's view: the team of one, at level 0. */
OMP_API int omp_get_level(void) { return 0; }
OMP_API int omp_get_active_level(void) { return 0; }
OMP_API int omp_get_ancestor_thread_num(int level) { return level == 0 ? 0 : -1; }
OMP_API int omp_get_team_size(int level) { return level == 0 ? 1 : -1; }

/* A team's threads take turns on the workers, so a team may have more threads than there
   are workers: the only limit is the int's, as libgomp's default thread-limit-var. */
OMP_API int omp_get_thread_limit(void) { return INT_MAX; }
OMP_API int omp_get_num_procs(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

/* ------------------------------------------------------------------ affinity (no places) */

OMP_API int omp_get_proc_bind(void) { return 0; } /* omp_proc_bind_false */
OMP_API int omp_get_num_places(void) { return 0; }
OMP_API int omp_get_place_num_procs(int place_num) {
  (void)place_num;
  return 0;
}
OMP_API void omp_get_place_proc_ids(int place_num, int *ids) {
  (void)place_num;
  (void)ids;
}
OMP_API int omp_get_place_num(void) { return -1; }
OMP_API int omp_get_partition_num_places(void) { return 0; }
OMP_API void omp_get_partition_place_nums(int *place_nums) { (void)place_nums; }

OMP_API void omp_set_affinity_format(const char *format) {
  char *copy = format ? strdup(format) : NULL;
  pthread_mutex_lock(&format_lock);
  free(affinity_format);
  affinity_format = copy;
  pthread_mutex_unlock(&format_lock);
}

/* Copy `text` into `buffer` of `size` bytes as snprintf does; its length. */
static size_t copy_out(char *buffer, size_t size, const char *text) {
  size_t n = strlen(text);
  if (buffer && size) {
    size_t k = n < size - 1 ? n : size - 1;
    memcpy(buffer, text, k);
    buffer[k] = '\0';
  }
  return n;
}

OMP_API size_t omp_get_affinity_format(char *buffer, size_t size) {
  pthread_mutex_lock(&format_lock);
  size_t n = copy_out(buffer, size, affinity_format ? affinity_format : default_format);
  pthread_mutex_unlock(&format_lock);
  return n;
}

typedef struct {
  char *s;
  size_t len, cap;
} text;

static void put(text *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 64;
    while (cap < t->len + n + 1)
      cap *= 2;
    char *grown = realloc(t->s, cap);
    if (!grown)
      rt_fatal_plain("out of memory for an affinity string");
    t->s = grown;
    t->cap = cap;
  }
  memcpy(t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
}

/* Who asks for an affinity string: the initial thread (number 0 of 1, level 0), or a
   thread of a team, whose number and size the compiler passes along
   (carts_capture_affinity_in_team). */
typedef struct {
  int thread, threads, level;
} asker;

static const asker initial_thread = {0, 1, 0};

/* A field's value for the thread that asks. */
static int field_value(char type, char *out, size_t size, asker who) {
  switch (type) {
  case 't': return snprintf(out, size, "0");                       /* team_num */
  case 'T': return snprintf(out, size, "1");                       /* num_teams */
  case 'L': return snprintf(out, size, "%d", who.level);           /* nesting_level */
  case 'n': return snprintf(out, size, "%d", who.thread);          /* thread_num */
  case 'N': return snprintf(out, size, "%d", who.threads);         /* num_threads */
  case 'a': return snprintf(out, size, "%d", who.level ? 0 : -1);  /* ancestor_tnum */
  case 'H':                                                        /* host */
    if (gethostname(out, size) != 0)
      snprintf(out, size, "?");
    out[size - 1] = '\0';
    return (int)strlen(out);
  case 'P': return snprintf(out, size, "%ld", (long)getpid());     /* process_id */
  case 'i': return snprintf(out, size, "%ld", (long)gettid());     /* native_thread_id */
  case 'A': {                                                      /* thread_affinity */
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 1 ? snprintf(out, size, "0-%ld", n - 1) : snprintf(out, size, "0");
  }
  default: return -1;
  }
}

static char long_name(const char *name, size_t n) {
  static const struct {
    const char *name;
    char type;
  } names[] = {{"team_num", 't'},       {"num_teams", 'T'},        {"nesting_level", 'L'},
               {"thread_num", 'n'},     {"num_threads", 'N'},      {"ancestor_tnum", 'a'},
               {"host", 'H'},           {"process_id", 'P'},       {"native_thread_id", 'i'},
               {"thread_affinity", 'A'}};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    if (strlen(names[k].name) == n && memcmp(names[k].name, name, n) == 0)
      return names[k].type;
  return 0;
}

/* The format's fields expanded: %[0][.][size]type or %[0][.][size]{name}, and %%. A field
   it does not know is copied as written. */
static char *expand(const char *format, asker who) {
  text t = {0};
  put(&t, "", 0);
  for (const char *p = format; *p;) {
    if (*p != '%') {
      const char *q = strchr(p, '%');
      size_t n = q ? (size_t)(q - p) : strlen(p);
      put(&t, p, n);
      p += n;
      continue;
    }
    const char *start = p++;
    if (*p == '%') {
      put(&t, "%", 1);
      p++;
      continue;
    }
    int zero = 0, right = 0, width = 0;
    if (*p == '0') {
      zero = 1;
      p++;
    }
    if (*p == '.') {
      right = 1;
      p++;
    }
    while (*p >= '0' && *p <= '9')
      width = width * 10 + (*p++ - '0');
    char type = 0;
    if (*p == '{') {
      const char *close = strchr(p, '}');
      if (close) {
        type = long_name(p + 1, (size_t)(close - p - 1));
        p = close + 1;
      }
    } else if (*p) {
      type = *p++;
    }
    char value[256];
    int n = type ? field_value(type, value, sizeof value, who) : -1;
    if (n < 0) {
      put(&t, start, (size_t)(p - start));
      continue;
    }
    n = (int)strlen(value);
    for (int k = n; k < width && right; k++)
      put(&t, zero ? "0" : " ", 1);
    put(&t, value, (size_t)n);
    for (int k = n; k < width && !right; k++)
      put(&t, " ", 1);
  }
  return t.s;
}

static size_t capture(char *buffer, size_t size, const char *format, asker who) {
  char *expanded;
  if (format && *format) {
    expanded = expand(format, who);
  } else {
    pthread_mutex_lock(&format_lock);
    expanded = expand(affinity_format ? affinity_format : default_format, who);
    pthread_mutex_unlock(&format_lock);
  }
  size_t n = copy_out(buffer, size, expanded);
  free(expanded);
  return n;
}

static void display(const char *format, asker who) {
  size_t n = capture(NULL, 0, format, who);
  char *line = malloc(n + 1);
  if (!line)
    rt_fatal_plain("out of memory for an affinity string");
  capture(line, n + 1, format, who);
  fprintf(stderr, "%s\n", line); /* where libgomp writes it, as omp_display_env */
  free(line);
}

OMP_API size_t omp_capture_affinity(char *buffer, size_t size, const char *format) {
  return capture(buffer, size, format, initial_thread);
}

OMP_API void omp_display_affinity(const char *format) { display(format, initial_thread); }

/* The two routines as the compiler calls them, with the asking thread's
   omp_get_thread_num(), omp_get_num_threads() and omp_get_level(), which it knows. */
OMP_API size_t carts_capture_affinity_in_team(char *buffer, size_t size, const char *format,
                                              int thread, int threads, int level) {
  return capture(buffer, size, format, (asker){thread, threads, level});
}

OMP_API void carts_display_affinity_in_team(const char *format, int thread, int threads,
                                            int level) {
  display(format, (asker){thread, threads, level});
}

/* ------------------------------------------------------------------ teams, tasks, devices */

OMP_API int omp_get_num_teams(void) { return 1; }
OMP_API int omp_get_team_num(void) { return 0; }
OMP_API void omp_set_num_teams(int num_teams) {
  if (num_teams > 0)
    num_teams_var = num_teams;
}
OMP_API int omp_get_max_teams(void) { return num_teams_var; }
OMP_API void omp_set_teams_thread_limit(int thread_limit) {
  if (thread_limit > 0)
    teams_thread_limit = thread_limit;
}
OMP_API int omp_get_teams_thread_limit(void) { return teams_thread_limit; }

OMP_API int omp_get_max_task_priority(void) { return 0; }
OMP_API int omp_in_explicit_task(void) { return 0; }
OMP_API int omp_in_final(void) { return 0; }
/* A detached task's event: the compiler orders the tasks that depend on a detached task
   after every task created before them (a taskwait), so the event fulfilled by one of
   those has happened; the call itself has nothing left to do. */
OMP_API void omp_fulfill_event(uintptr_t event) { (void)event; }

OMP_API int omp_pause_resource(int kind, int device_num) {
  (void)kind;
  return device_num == 0 ? 0 : -1; /* nothing to release: the runtime keeps its threads */
}
OMP_API int omp_pause_resource_all(int kind) { return omp_pause_resource(kind, 0); }

OMP_API void omp_set_default_device(int device_num) {
  if (device_num >= 0)
    default_device = device_num;
}
OMP_API int omp_get_default_device(void) { return default_device; }
OMP_API int omp_get_num_devices(void) { return 0; }
OMP_API int omp_get_initial_device(void) { return 0; } /* omp_get_num_devices() */
OMP_API int omp_get_device_num(void) { return 0; }
OMP_API int omp_is_initial_device(void) { return 1; }

OMP_API int omp_control_tool(int command, int modifier, void *arg) {
  (void)command;
  (void)modifier;
  (void)arg;
  return -2; /* omp_control_tool_notool */
}

/* ------------------------------------------------------------------ locks */

typedef struct {
  _Atomic long state;
} lock_word;
typedef struct {
  _Atomic long count;
  _Atomic long owner;
} nest_word;

static _Thread_local char thread_tag; /* its address names the calling thread */
static long self(void) { return (long)(uintptr_t)&thread_tag; }

OMP_API void omp_init_lock(void *lock) { atomic_store(&((lock_word *)lock)->state, 0); }
OMP_API void omp_init_lock_with_hint(void *lock, int hint) {
  (void)hint;
  omp_init_lock(lock);
}
OMP_API void omp_destroy_lock(void *lock) { atomic_store(&((lock_word *)lock)->state, 0); }
OMP_API int omp_test_lock(void *lock) {
  long free_state = 0;
  return atomic_compare_exchange_strong(&((lock_word *)lock)->state, &free_state, 1);
}
OMP_API void omp_set_lock(void *lock) {
  while (!omp_test_lock(lock))
    sched_yield();
}
OMP_API void omp_unset_lock(void *lock) { atomic_store(&((lock_word *)lock)->state, 0); }

OMP_API void omp_init_nest_lock(void *lock) {
  nest_word *w = lock;
  atomic_store(&w->count, 0);
  atomic_store(&w->owner, 0);
}
OMP_API void omp_init_nest_lock_with_hint(void *lock, int hint) {
  (void)hint;
  omp_init_nest_lock(lock);
}
OMP_API void omp_destroy_nest_lock(void *lock) { omp_init_nest_lock(lock); }
OMP_API int omp_test_nest_lock(void *lock) {
  nest_word *w = lock;
  long me = self(), nobody = 0;
  if (atomic_load(&w->owner) == me)
    return (int)atomic_fetch_add(&w->count, 1) + 1;
  if (!atomic_compare_exchange_strong(&w->owner, &nobody, me))
    return 0;
  atomic_store(&w->count, 1);
  return 1;
}
OMP_API void omp_set_nest_lock(void *lock) {
  while (!omp_test_nest_lock(lock))
    sched_yield();
}
OMP_API void omp_unset_nest_lock(void *lock) {
  nest_word *w = lock;
  if (atomic_fetch_sub(&w->count, 1) == 1)
    atomic_store(&w->owner, 0);
}

/* ------------------------------------------------------------------ memory */

/* An allocator made by omp_init_allocator: its alignment trait (the others are accepted and
   change nothing: there is one memory). Handles 1..8 are the predefined allocators. */
typedef struct {
  size_t alignment;
} allocator;

enum { ATK_ALIGNMENT = 2 };

OMP_API uintptr_t omp_init_allocator(uintptr_t memspace, int ntraits, const void *traits) {
  (void)memspace;
  allocator *a = calloc(1, sizeof *a);
  if (!a)
    return 0; /* omp_null_allocator */
  const struct { /* omp.h's omp_alloctrait_t */
    uintptr_t key;
    uintptr_t value;
  } *trait = traits;
  for (int k = 0; k < ntraits; k++)
    if (trait[k].key == ATK_ALIGNMENT && trait[k].value && !(trait[k].value & (trait[k].value - 1)))
      a->alignment = trait[k].value;
  return (uintptr_t)a;
}
OMP_API void omp_destroy_allocator(uintptr_t handle) {
  if (handle > 8)
    free((allocator *)handle);
}
OMP_API void omp_set_default_allocator(uintptr_t handle) {
  if (handle)
    default_allocator = handle;
}
OMP_API uintptr_t omp_get_default_allocator(void) { return default_allocator; }

static size_t alignment_of(uintptr_t handle) {
  if (!handle)
    handle = default_allocator;
  return handle > 8 ? ((allocator *)handle)->alignment : 0;
}

static void *aligned(size_t alignment, size_t size) {
  if (alignment < sizeof(void *))
    return malloc(size ? size : 1);
  void *p = NULL;
  return posix_memalign(&p, alignment, size ? size : 1) == 0 ? p : NULL;
}

OMP_API void *omp_aligned_alloc(size_t alignment, size_t size, uintptr_t handle) {
  size_t own = alignment_of(handle);
  return aligned(own > alignment ? own : alignment, size);
}
OMP_API void *omp_alloc(size_t size, uintptr_t handle) {
  return omp_aligned_alloc(0, size, handle);
}
OMP_API void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size, uintptr_t handle) {
  if (size && nmemb > SIZE_MAX / size)
    return NULL;
  void *p = omp_aligned_alloc(alignment, nmemb * size, handle);
  if (p)
    memset(p, 0, nmemb * size);
  return p;
}
OMP_API void *omp_calloc(size_t nmemb, size_t size, uintptr_t handle) {
  return omp_aligned_calloc(0, nmemb, size, handle);
}
OMP_API void omp_free(void *ptr, uintptr_t handle) {
  (void)handle;
  free(ptr);
}
OMP_API void *omp_realloc(void *ptr, size_t size, uintptr_t handle, uintptr_t free_handle) {
  (void)free_handle;
  size_t alignment = alignment_of(handle);
  if (!ptr)
    return omp_alloc(size, handle);
  if (!size) {
    free(ptr);
    return NULL;
  }
  if (alignment < sizeof(void *))
    return realloc(ptr, size);
  void *moved = aligned(alignment, size);
  if (moved) {
    size_t old = malloc_usable_size(ptr);
    memcpy(moved, ptr, old < size ? old : size);
    free(ptr);
  }
  return moved;
}

/* ------------------------------------------------------------------ environment */

OMP_API void omp_display_env(int verbose) {
  static const char *kinds[] = {"?", "STATIC", "DYNAMIC", "GUIDED", "AUTO"};
  int kind = sched_kind & 7;
  int threads = atomic_load(&rt.running) ? (int)artsGetTotalWorkers() : 1;
  fprintf(stderr, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
  fprintf(stderr, "  _OPENMP = '201511'\n");
  fprintf(stderr, "  OMP_DYNAMIC = '%s'\n", dyn_var ? "TRUE" : "FALSE");
  fprintf(stderr, "  OMP_NUM_THREADS = '%d'\n", threads);
  fprintf(stderr, "  OMP_SCHEDULE = '%s", kinds[kind <= 4 ? kind : 0]);
  if (sched_chunk)
    fprintf(stderr, ",%d", sched_chunk);
  fprintf(stderr, "'\n");
  fprintf(stderr, "  OMP_PROC_BIND = 'FALSE'\n");
  fprintf(stderr, "  OMP_MAX_ACTIVE_LEVELS = '%d'\n", max_active_levels);
  fprintf(stderr, "  OMP_THREAD_LIMIT = '%d'\n", omp_get_thread_limit());
  fprintf(stderr, "  OMP_CANCELLATION = 'FALSE'\n");
  fprintf(stderr, "  OMP_DEFAULT_DEVICE = '%d'\n", default_device);
  fprintf(stderr, "  OMP_MAX_TASK_PRIORITY = '0'\n");
  if (verbose) {
    pthread_mutex_lock(&format_lock);
    fprintf(stderr, "  OMP_AFFINITY_FORMAT = '%s'\n",
            affinity_format ? affinity_format : default_format);
    pthread_mutex_unlock(&format_lock);
    fprintf(stderr, "  OMP_ALLOCATOR = 'omp_default_mem_alloc'\n");
    fprintf(stderr, "  OMP_NUM_TEAMS = '%d'\n", num_teams_var);
    fprintf(stderr, "  OMP_TEAMS_THREAD_LIMIT = '%d'\n", teams_thread_limit);
  }
  fprintf(stderr, "OPENMP DISPLAY ENVIRONMENT END\n");
}
