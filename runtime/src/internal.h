/* Internal declarations shared by the runtime's translation units. Everything here has hidden
   visibility (the library is built with -fvisibility=hidden); only arts.h is exported. */
#ifndef CARTS_RT_INTERNAL_H
#define CARTS_RT_INTERNAL_H

#include "arts.h"
#include "transport.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define RT_CACHE_LINE 64
#define RT_NORETURN _Noreturn
#define RT_LIKELY(x) __builtin_expect(!!(x), 1)
#define RT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ------------------------------------------------------------------ locks

   The runtime's critical sections are a few dozen instructions (a queue link, a counter, a
   hash bucket), so its hot locks spin rather than sleep: a futex sleep and wake-up costs
   microseconds, more than the section itself, and under contention the creator of a
   parallel loop's tasks would sleep on every datablock its workers release. A waiter that
   spins for long (the holder's thread was preempted: more threads than cores) yields. */

typedef struct rt_lock {
  _Atomic int held;
} rt_lock;

void rt_lock_contended(rt_lock *l);

static inline void rt_lock_init(rt_lock *l) { atomic_init(&l->held, 0); }

static inline void rt_lock_acquire(rt_lock *l) {
  if (__builtin_expect(!atomic_exchange_explicit(&l->held, 1, memory_order_acquire), 1))
    return;
  rt_lock_contended(l);
}

static inline void rt_lock_release(rt_lock *l) {
  atomic_store_explicit(&l->held, 0, memory_order_release);
}

/* CLOCK_MONOTONIC in nanoseconds: idle timing, profile=1 and trace=FILE. */
static inline uint64_t rt_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ configuration */

#define RT_TRACE_PATH_MAX 4096

typedef struct rt_config {
  uint32_t threads;    /* workers on this node */
  uint32_t node_count; /* nodes in the run */
  uint32_t node;       /* this node (0 unless the node actor installed the transport) */
  uint64_t stack_size; /* bytes of stack per worker thread */
  double deadlock_s;   /* report a run in which nothing can progress after this long; 0: never */
  int64_t spin_ns;     /* how long an idle worker polls before it sleeps; -1: by core count */
  int affinity;        /* honour the worker a task's route asks for (1, the default) */
  int profile;         /* print per-worker counters on stderr when the run ends */
  int huge_pages;      /* map payloads of 2 MiB and more with transparent huge pages (db.c) */
  int populate;        /* fault such payloads in when they are made (db.c); -1: by node count */
  int route_follows;   /* a route's tasks go where its last task ran (1, the default) */
  char trace_path[RT_TRACE_PATH_MAX]; /* write one CSV row per task here (empty: none) */
} rt_config;

/* Fill *cfg from arts.cfg and the environment. Returns 0, or -1 after printing why. */
int rt_config_load(rt_config *cfg);

/* ------------------------------------------------------------------ errors */

/* Print "carts runtime: error: <message> (guid 0x...)" and exit the process with status 2. */
RT_NORETURN void rt_fatal(artsGuid_t guid, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Same for an error that concerns no GUID. */
RT_NORETURN void rt_fatal_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ------------------------------------------------------------------ GUIDs and the table */

#define RT_KEY_RUN_BIT (UINT64_C(1) << 39)
#define RT_KEY_NODE_SHIFT 31
#define RT_KEY_SEQ_LIMIT (UINT64_C(1) << 31)

static inline artsGuid_t rt_guid_make(uint32_t type, uint32_t route, uint64_t key) {
  return ((uint64_t)type << ARTS_GUID_TYPE_SHIFT) | ((uint64_t)(route & 0xFFFFu) << ARTS_GUID_ROUTE_SHIFT) |
         key;
}

static inline int rt_is_db_type(uint32_t type) {
  return type == ARTS_DB_READ || type == ARTS_DB_WRITE || type == ARTS_DB_CONCURRENT;
}

/* The modes a dependence may ask for: a GUID's datablock type, or a stable one. */
static inline int rt_is_access_mode(uint32_t mode) {
  return rt_is_db_type(mode) || mode == ARTS_DB_READ_STABLE || mode == ARTS_DB_CONCURRENT_STABLE ||
         mode == ARTS_DB_WRITE_STABLE;
}
#define RT_ACCESS_MODE_NAMES                                                                     \
  "ARTS_DB_READ, ARTS_DB_WRITE, ARTS_DB_CONCURRENT, ARTS_DB_READ_STABLE, "                       \
  "ARTS_DB_CONCURRENT_STABLE, ARTS_DB_WRITE_STABLE"

/* The ordered mode a stable one stands for (READ, CONCURRENT, WRITE); any other mode is its
   own. */
static inline uint32_t rt_ordered_mode(uint32_t mode) {
  return mode == ARTS_DB_READ_STABLE         ? ARTS_DB_READ
         : mode == ARTS_DB_CONCURRENT_STABLE ? ARTS_DB_CONCURRENT
         : mode == ARTS_DB_WRITE_STABLE      ? ARTS_DB_WRITE
                                             : mode;
}

/* Every object that has a GUID starts with this header; `next` chains a hash bucket. */
typedef struct rt_obj {
  artsGuid_t guid;
  struct rt_obj *next;
} rt_obj;

typedef struct rt_shard {
  rt_lock lock;
  rt_obj **buckets;
  size_t mask;
  size_t count;
} __attribute__((aligned(RT_CACHE_LINE))) rt_shard;

void rt_table_init(void);
void rt_table_destroy(void);
rt_shard *rt_table_shard(artsGuid_t guid);
rt_obj *rt_shard_find(rt_shard *shard, artsGuid_t guid); /* caller holds shard->lock */
void rt_shard_insert(rt_shard *shard, rt_obj *obj);      /* caller holds shard->lock */
void rt_shard_remove(rt_shard *shard, rt_obj *obj);      /* caller holds shard->lock */
void rt_table_insert(rt_obj *obj);
void rt_table_remove(rt_obj *obj);
/* Visit every object, each under its shard's lock. */
void rt_table_visit(void (*visit)(rt_obj *obj, void *arg), void *arg);
/* Visit every object and empty the table (teardown, single-threaded). */
void rt_table_drain(void (*visit)(rt_obj *obj, void *arg), void *arg);

/* A new key for an object owned by `route`; deterministic before the workers start. */
uint64_t rt_mint_key(void);
/* Whether `guid` could have been handed out by a reservation (its key was minted). */
int rt_guid_was_minted(artsGuid_t guid);

/* ------------------------------------------------------------------ epochs */

typedef struct rt_epoch {
  rt_obj hdr;
  /* Tasks, puts and nested epochs counted in it and not finished, plus the creator's hold.
     The epoch ends when this reaches zero; it never rises from zero again. */
  _Atomic int64_t pending;
  _Atomic uint64_t counted; /* tasks and puts ever counted (the finish task's value) */
  _Atomic int32_t refs;     /* the table's reference plus one per waiter */
  int is_top;
  /* The creator counts the tasks it starts in the epoch here, without touching `pending`
     (which the workers finishing its tasks write): `pending` starts `credit` higher, and
     the creator gives back `credit - local` with its hold. Creator only. */
  int64_t credit, local;
  /* Read by the threads waiting for the end: apart from `pending`. */
  _Alignas(RT_CACHE_LINE) _Atomic int32_t done;
  _Atomic int32_t waiters; /* threads parked on it */
  /* A proxy stands for an epoch homed on another node: counting in it and finishing it
     become messages to the home; it never ends here. Its `pending` is 1 plus the tasks other
     nodes created here in it that have not finished; `unsent` the finished ones not yet
     reported, which go to the home in one message when `pending` falls back to 1. */
  int proxy;
  _Atomic int64_t unsent;
  uint32_t home;
  struct rt_epoch *parent;      /* kept open until this one ends */
  struct rt_epoch *stack_below; /* next epoch on its creator's stack */
  artsGuid_t finish_edt;
  uint32_t finish_slot;
} __attribute__((aligned(RT_CACHE_LINE))) rt_epoch;

rt_epoch *rt_epoch_new(rt_epoch *parent, artsGuid_t finish_edt, uint32_t finish_slot);
/* Count one more task or put in `guid` (NULL_GUID: the calling task's current epoch). */
rt_epoch *rt_epoch_enrol(artsGuid_t guid, const char *api);
/* One task, put, nested epoch or hold counted in `e` has finished. */
void rt_epoch_finish_one(rt_epoch *e);
/* The task of `ctx`, counted in `e`, has finished: it also gives back its unused counts. */
struct rt_ctx;
void rt_epoch_finish_task(rt_epoch *e, struct rt_ctx *ctx);
/* A task another node created here in the proxy `e` arrived: it counts until it finishes
   (rt_epoch_finish_arrived), and the home hears of finished ones when none is left. */
void rt_epoch_arrived(rt_epoch *e);
void rt_epoch_finish_arrived(rt_epoch *e);
void rt_epoch_unref(rt_epoch *e);
/* Tasks the creator of `e` started in it that have not finished (creator only). */
static inline int64_t rt_epoch_outstanding(rt_epoch *e) {
  return e->local + atomic_load_explicit(&e->pending, memory_order_relaxed) - 1 - e->credit;
}
/* Run ready tasks while more than `above` tasks of `e`, which the caller created, are
   unfinished; never waits (what is left may wait for the caller). */
void rt_sched_run_ready_while(rt_epoch *e, int64_t above);
/* Called by the creator before each task it starts in an epoch it holds (the previous one
   has its dependences by then): past 64Ki unfinished ones (a loop launched far ahead of its
   dependences), it runs ready tasks itself until half are done, so memory stays bounded. */
static inline void rt_epoch_before_launch(rt_epoch *e) {
  if (__builtin_expect((e->local & 1023) == 1023, 0) &&
      rt_epoch_outstanding(e) > 65536)
    rt_sched_run_ready_while(e, 32768);
}
/* The epoch `guid` as a task of this node is counted in it: the live local epoch, or the
   proxy of an epoch homed elsewhere (created on first use). */
rt_epoch *rt_epoch_at(artsGuid_t guid, const char *api);
/* Another node counted one more task or put in the local epoch `guid` / one finished. */
void rt_epoch_remote_add(artsGuid_t guid);
void rt_epoch_remote_done(artsGuid_t guid, uint64_t n);

/* ------------------------------------------------------------------ tasks */

/* Per-slot state: unclaimed, claimed by a signal, or claimed by artsRecordDep (then the
   value is the datablock to release when the task ends). */
#define RT_SLOT_FREE ((uintptr_t)0)
#define RT_SLOT_SIGNAL ((uintptr_t)1)
/* Tag of a slot satisfied by a datablock owned by another node: the rest of the word points
   to its rt_remote_dep, released by writing the copy back or dropping it. */
#define RT_SLOT_REMOTE_TAG ((uintptr_t)2)

/* A node's copy of another node's datablock, shared by the READ tasks of one version and
   kept in the node's copy cache (edt.c) while it is the newest version seen here. */
typedef struct rt_copy {
  _Atomic uint32_t refs;
  uint64_t bytes;
  uint64_t mapped; /* bytes of its own mapping (huge pages: edt.c), 0 when malloc'd */
  unsigned char data[] __attribute__((aligned(16)));
} rt_copy;

typedef struct rt_remote_dep {
  artsGuid_t db;
  uint32_t mode;
  uint32_t owner;
  uint64_t version; /* the owner's version of what the task sees (WRITE: what it makes) */
  rt_copy *copy;
  unsigned char *was; /* CONCURRENT: the bytes as granted, to send back only what changed */
} rt_remote_dep;

/* A request waiting on a datablock: a local task's slot (REQ_SLOT, kept in the task, one per
   slot), a remote task's slot, or a get (artsGetFromDbEpoch) from this node or another one
   (allocated by db.c). */
typedef enum { REQ_SLOT, REQ_REMOTE_SLOT, REQ_GET, REQ_REMOTE_GET } req_kind;

typedef struct rt_request {
  struct rt_request *next;
  req_kind kind;
  uint32_t mode; /* an access mode, or ARTS_NULL for an unordered signal */
  uint32_t slot;
  uint32_t node;          /* remote kinds: the node that asked */
  uint32_t offset, bytes; /* gets */
  union {
    struct rt_edt *edt;  /* REQ_SLOT */
    artsGuid_t edt_guid; /* REQ_REMOTE_SLOT */
    uint64_t handle;     /* REQ_REMOTE_GET */
    struct {             /* REQ_GET */
      void *dst;
      struct rt_epoch *epoch;
    };
  };
} rt_request;

typedef struct rt_edt {
  rt_obj hdr; /* hdr.next also links the injection queue once the task is ready */
  artsEdt_t fn;
  rt_epoch *epoch;
  uint32_t paramc;
  uint32_t depc;
  uint32_t unclaimed; /* slots no call has claimed yet; guarded by the table shard lock */
  uint32_t worker;    /* the worker this task should run on, or RT_ANY_WORKER */
  uint32_t pool;      /* 1 + the worker whose task pool it came from, or 0 (malloc) */
  uint32_t arrived;   /* created by another node in an epoch homed elsewhere (see epoch.c) */
  _Atomic uint32_t unsatisfied;
  uint64_t *paramv;
  artsEdtDep_t *depv;
  uintptr_t *slot_state;
  rt_request *requests; /* one per slot, for the datablock it waits on */
  uint64_t ready_ns; /* when it was made ready (stamped only with trace=FILE) */
} rt_edt;

/* Fill a claimed slot; the last one makes the task ready. */
void rt_edt_satisfy(rt_edt *t, uint32_t slot, artsGuid_t guid, uint32_t mode, void *ptr);
/* Claim `slot` of the task `guid` (fatal if unknown, out of range or already claimed). */
rt_edt *rt_edt_claim(artsGuid_t guid, uint32_t slot, uintptr_t state, const char *api);
void rt_edt_signal_value(artsGuid_t edt, uint32_t slot, uint64_t value, const char *api);
/* Put a created task with dependences where slot claims find it (and replay the slots other
   nodes satisfied before it arrived). */
void rt_edt_publish(rt_edt *t);
/* A message from another node satisfies `slot` of the local task `edt` (which may not have
   arrived yet): with a datablock copy (kind = a datablock mode), a value or null. */
void rt_edt_remote_grant(artsGuid_t edt, uint32_t slot, artsGuid_t db, uint32_t mode,
                         uint32_t owner, uint64_t version, uint64_t prev, int cached,
                         const void *data, uint64_t bytes);
/* The owner sent its payload of `db` at `version` ahead of any grant (artsDbShare): keep it. */
void rt_edt_remote_copy(artsGuid_t db, uint64_t version, const void *data, uint64_t bytes);
/* Drop the copies of other nodes' datablocks this node keeps (the run is over). */
void rt_edt_copies_clear(void);
void rt_edt_remote_signal(artsGuid_t edt, uint32_t slot, uint32_t kind, uint64_t value);
/* A task another node created for this one (`fn` already resolved). */
void rt_edt_remote_create(artsEdt_t fn, artsGuid_t guid, uint32_t paramc, const uint64_t *paramv,
                          uint32_t depc, artsGuid_t epoch);
/* Free a task (back to its pool, if it came from one). */
void rt_edt_free(rt_edt *t);
/* Free what the task pools hold (at teardown, no task running). */
void rt_edt_pools_destroy(void);
rt_edt *rt_edt_new(artsEdt_t fn, artsGuid_t guid, uint32_t paramc, const uint64_t *paramv,
                   uint32_t depc, rt_epoch *epoch);
/* Run a ready task on the calling worker, then release what it holds and free it. With
   `returned_ns`, the time its code returned is stored there. */
void rt_edt_run(rt_edt *t, uint64_t *returned_ns);

/* The task running on this thread: its enrolment epoch and the epochs it started. */
typedef struct rt_ctx {
  rt_edt *edt;
  rt_epoch *enrolled;
  rt_epoch *stack_top;
  /* A task counts what it starts in `enrolled` against counts it added to the epoch ahead,
     a batch at a time: `spare` of them are still unused, `added` were used (see
     rt_epoch_finish_task). */
  int64_t spare, added;
} rt_ctx;

static inline rt_epoch *rt_ctx_current_epoch(const rt_ctx *ctx) {
  return ctx->stack_top ? ctx->stack_top : ctx->enrolled;
}
/* Release the holds of the epochs `ctx` started and did not wait on. */
void rt_ctx_release_epochs(rt_ctx *ctx);

/* ------------------------------------------------------------------ datablocks */

typedef struct rt_db rt_db;
/* The datablock `guid`, created as a placeholder if it is reserved but not created yet. */
rt_db *rt_db_get(artsGuid_t guid, const char *api);
/* Start moving the line an acquire in `mode` of `d` takes the lock on (none for a stable mode)
   into this core's cache: the acquire comes once the task's other slots are set. */
void rt_db_prefetch(rt_db *d, uint32_t mode);
/* The payload bytes of the datablocks task `t` holds on this node (stable acquires hold
   none: their slots keep no datablock). */
uint64_t rt_db_held_bytes(const struct rt_edt *t);
/* Queue `slot` of `t` on the datablock's generations (the slot is already claimed). */
void rt_db_acquire(rt_db *d, rt_edt *t, uint32_t slot, uint32_t mode);
/* Satisfy `slot` of `t` with the payload pointer, without ordering (artsSignalEdt). */
void rt_db_signal(rt_db *d, rt_edt *t, uint32_t slot);
/* A task of the current generation has finished with the datablock. */
void rt_db_release(rt_db *d);
/* artsRecordDep as applied at the owner (the caller checked that `db` is owned here). */
void rt_db_record(artsGuid_t db, artsGuid_t edt, uint32_t slot, uint32_t mode);
/* A task on another node wrote the datablock and released it: the whole payload, or
   (`ranges`) a list of {offset, length, bytes padded to 8} of what it changed. */
void rt_db_write_back(artsGuid_t db, const void *data, uint64_t bytes, int ranges);
/* A put, at the owner, counted in `e` (local epoch or proxy). */
void rt_db_put(artsGuid_t db, rt_epoch *e, uint32_t offset, const void *src, uint32_t bytes);
/* A get from another node, at the owner: ordered like a READ, answered with the bytes. */
void rt_db_remote_get(artsGuid_t db, uint32_t node, uint32_t offset, uint32_t bytes,
                      uint64_t handle);
/* The reply to a get this node sent. */
void rt_db_get_reply(uint64_t handle, const void *data, uint32_t bytes);
void rt_db_free(rt_db *d, void (*edt_seen)(rt_edt *t, void *arg), void *arg);

/* ------------------------------------------------------------------ deadlock report */

/* Every worker is idle and nothing else can make work: say what waits for what, and exit. */
RT_NORETURN void rt_report_deadlock(void);

typedef struct rt_blocked {
  uint32_t tasks;    /* tasks with slots nobody satisfied */
  uint32_t requests; /* dependences and puts queued on datablocks */
  uint32_t notes;    /* lines printed so far */
  artsGuid_t first;  /* one blocked task, for the error line */
} rt_blocked;

/* Add what waits on `d` to the report (printing a note if there is room). */
void rt_db_describe_blocked(rt_db *d, rt_blocked *report);
#define RT_MAX_NOTES 8

/* ------------------------------------------------------------------ scheduler */

typedef struct rt_array {
  int64_t size;
  struct rt_array *retired; /* older arrays, freed at teardown (thieves may still read them) */
  _Atomic(rt_edt *) slots[];
} rt_array;

/* Chase-Lev work-stealing deque: the owner pushes and takes at the bottom, thieves steal at
   the top. */
typedef struct rt_deque {
  _Atomic int64_t top;
  char pad0[RT_CACHE_LINE - sizeof(int64_t)];
  _Atomic int64_t bottom;
  _Atomic(rt_array *) array;
  char pad1[RT_CACHE_LINE - sizeof(int64_t) - sizeof(void *)];
} rt_deque;

#define RT_STEAL_ABORT ((rt_edt *)1)

void rt_deque_init(rt_deque *dq, int64_t size);
void rt_deque_destroy(rt_deque *dq);
void rt_deque_push(rt_deque *dq, rt_edt *t);
rt_edt *rt_deque_take(rt_deque *dq);
rt_edt *rt_deque_steal(rt_deque *dq); /* NULL if empty, RT_STEAL_ABORT if it lost a race */
static inline int rt_deque_nonempty(rt_deque *dq) {
  return atomic_load_explicit(&dq->bottom, memory_order_relaxed) >
         atomic_load_explicit(&dq->top, memory_order_relaxed);
}

/* How a worker got a task, for trace=FILE (trace.c names them). */
typedef enum { RT_TAKEN_MAIN, RT_TAKEN_OWN, RT_TAKEN_MAIL, RT_TAKEN_INJECTED, RT_TAKEN_STOLEN,
               RT_TAKEN_MAIL_STOLEN } rt_taken;

typedef struct rt_trace_event {
  artsEdt_t fn;
  uint64_t ready, start, end;
  uint32_t routed;
  uint8_t taken;
} rt_trace_event;

/* Where a worker last found a datablock (rt_db_get). */
#define RT_DB_SEEN_BITS 6
typedef struct rt_db_seen {
  artsGuid_t guid;
  struct rt_db *db;
} rt_db_seen;

typedef struct rt_worker {
  rt_deque deque;
  /* Written by the owner alone. */
  uint32_t id;
  pthread_t thread;
  uint64_t key_next, key_end; /* this worker's block of run-time GUID keys */
  uint64_t rng;
  rt_edt *pool_local; /* task memory this worker allocated, for reuse */
  struct rt_slab *slabs; /* where its pool's memory comes from */
  uint32_t slab_tasks;   /* the size of its next slab, in tasks */
  rt_db_seen db_seen[1u << RT_DB_SEEN_BITS];
  int take_stale_mail; /* its idle wait was long: steal may empty parked workers' mailboxes */
  /* A routed task this worker made ready for itself while ending a task, whose payloads fit
     rt.keep_bytes: it runs next, and no other worker can take it (it would run it on cold
     caches a microsecond before this one is free). If the worker returns from waiting into a
     task's code instead, the task goes to its deque. `releasing` is set while rt_edt_run
     ends a task. */
  struct rt_edt *next;
  int releasing;
  uint8_t taken;       /* how find_work got the task it returned last (rt_taken) */
  rt_trace_event *trace; /* trace=FILE: the tasks this worker ran */
  size_t trace_len, trace_cap;
  /* profile counters (ran is always counted) */
  uint64_t ran, stolen, mail_taken, mail_stolen, parks, waits;
  uint64_t idle_ns, run_ns, wait_ns;
  /* Read by every idle worker: on its own line, so that the owner's other writes do not
     invalidate it in their caches. */
  _Alignas(RT_CACHE_LINE) _Atomic int busy; /* running a task (not looking for work) */
  /* Tasks other threads made ready for this worker (their route asked for it): taken before
     anything is stolen; other workers take them only while this one is busy. Written by
     the creators. */
  _Alignas(RT_CACHE_LINE) rt_lock mail_lock;
  _Atomic uint32_t mail_count;
  rt_edt *mail_head, *mail_tail;
  /* Task memory that ended on other workers comes back here (pushed one by one, taken all
     at once). */
  _Alignas(RT_CACHE_LINE) _Atomic(rt_edt *) pool_returned;
  /* Parked on `rt.park_word` with a bit of its own (scheduler.c). */
  _Alignas(RT_CACHE_LINE) _Atomic int sleeping;
  /* cartsExit on several nodes leaves the program's code through here (worker_main). */
  jmp_buf exit_jmp;
} __attribute__((aligned(RT_CACHE_LINE))) rt_worker;

/* trace=FILE (trace.c): open the file before the workers start, record each task a worker
   ran, write the rows when the run ends. open/write return 0, or -1 after printing why. */
int rt_trace_open(const rt_config *cfg);
void rt_trace_record(rt_worker *w, const rt_edt *t, rt_taken taken, uint64_t start, uint64_t end);
int rt_trace_write(void);

/* No preferred worker. */
#define RT_ANY_WORKER UINT32_MAX

/* Give worker `w` its first pool of task memory (its own thread, before any task runs). */
void rt_edt_pool_prime(rt_worker *w);

/* Make a ready task runnable (the calling worker's deque, else the injection queue). */
void rt_sched_push(rt_edt *t);
/* Run ready tasks until `e` has ended; false if the runtime shut down first. */
int rt_sched_help_until(rt_epoch *e);

/* Wake every parked worker (an epoch a worker waits on ended, or shutdown). */
void rt_sched_wake_all(void);
void rt_request_shutdown(void);
/* The program called exit(code) on some node: end the run with that status (node 0 tells
   the others). */
void rt_request_exit(int code);

/* ------------------------------------------------------------------ the node runtime */

typedef struct rt_state {
  _Atomic int running;
  _Atomic int started; /* initPerNode is over: keys are minted per worker */
  _Atomic int shutdown;
  _Atomic int exited;    /* the program called exit(): artsRT returns exit_code */
  _Atomic int exit_code;
  rt_config cfg;
  uint32_t node;
  uint32_t nodes;
  uint32_t threads;
  rt_worker *workers;
  /* routeFollows: route_home[w] is the worker that now runs the tasks that ask for worker w
     (w at first, then the last worker that ran one of them). One array, read by every worker
     that makes a routed task ready and written only when a route moves. */
  _Atomic uint32_t *route_home;
  /* A task whose datablocks hold more payload bytes than this (twice a core's L2) does not
     stay in the cache of the worker that ran its route last: it is not kept for that
     worker's next run, so an idle worker can take it (scheduler.c). */
  uint64_t keep_bytes;
  rt_epoch *top;
  int net; /* other nodes exist (the node actor installed the transport) */

  _Atomic uint64_t init_key; /* next deterministic key */
  _Atomic uint64_t run_seq;  /* next block of run-time keys */

  char pad0[RT_CACHE_LINE];
  _Atomic uint32_t park_word;   /* the futex parked workers wait on; bumped by every wake-up */
  _Atomic int32_t sleepers;     /* parked workers */
  _Atomic int32_t idle_workers; /* workers with nothing to run (spinning or parked) */

  /* Ready tasks made by threads that are not workers. */
  char pad1[RT_CACHE_LINE];
  _Atomic int64_t inject_count;
  rt_lock inject_lock;
  rt_edt *inject_head, *inject_tail;

  int argc;
  char **argv;
} rt_state;

extern rt_state rt;

static inline int rt_tracing(void) { return rt.cfg.trace_path[0] != 0; }

/* Start moving the mailbox that a task asking for worker `w` goes to (the route's home) into
   this core's cache: the task is coming once it is set up. */
static inline void rt_sched_prefetch_mail(uint32_t w) {
  if (rt.cfg.route_follows)
    w = atomic_load_explicit(&rt.route_home[w], memory_order_relaxed);
  __builtin_prefetch(&rt.workers[w].mail_lock, 1);
}
/* Every runtime call reads these: initial-exec makes that a load from the thread pointer, not a
   call to __tls_get_addr (the library is loaded at start, or by dlopen into glibc's reserve
   for static TLS, which these few words fit). */
#define RT_TLS _Thread_local __attribute__((tls_model("initial-exec")))
extern RT_TLS rt_worker *rt_tls_worker;
extern RT_TLS rt_ctx *rt_tls_ctx;

/* Fatal unless called between artsRT's start and its return. */
static inline void rt_check_running(const char *api) {
  if (RT_UNLIKELY(!atomic_load_explicit(&rt.running, memory_order_relaxed)))
    rt_fatal_plain("%s called outside artsRT", api);
}

static inline int rt_route_is_local(uint32_t route) { return route == rt.node; }
/* Fatal unless other nodes are reachable (a route to another node in a one-node run). */
void rt_check_remote(uint32_t node, artsGuid_t guid, const char *api);

#endif /* CARTS_RT_INTERNAL_H */
