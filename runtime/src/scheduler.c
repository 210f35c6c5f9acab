/* Workers, scheduling, parking, and the runtime's lifecycle (artsRT).

   Each worker owns a work-stealing deque: tasks made ready by a worker go to the bottom of
   its own deque (LIFO for locality), idle workers steal from the top of others' deques.
   Threads that are not workers hand ready tasks over through a small injection queue. A task
   whose route asks for a worker goes to that worker's mailbox instead; the worker looks there
   right after its own deque, and others take from it only while its owner is busy, or once
   they have been idle for a while (its owner's thread may be descheduled, or asleep).

   Idle workers spin briefly, then park on one futex word (`rt.park_word`), each with a bit
   of its own (FUTEX_WAIT_BITSET), so that one system call can wake one worker or all of
   them. A worker about to park reads the word, sets its `sleeping` flag and re-checks for
   work; a thread that makes work visible reads the flag after a full barrier and, if it is
   set, bumps the word and wakes the worker's bit. One of the two always sees the other (a
   bump before the wait makes the wait return at once), so no wake-up is lost (the timed wait
   is only a backstop). A task routed to a worker wakes that worker alone, unless the same
   thread woke another one just before (a loop's launches after a serial phase): then every
   parked worker wakes at once, as a fork does, instead of one system call per task. Other
   ready tasks wake one parked worker; an epoch some worker waits on, ending, wakes them all.

   A task waiting on an epoch keeps its worker busy: it runs other ready tasks until the
   epoch ends (nested waits run on the same stack). */
#define _DEFAULT_SOURCE /* syscall */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DEQUE_INITIAL_SIZE 1024
#define PARK_BACKSTOP_NS 100000000
/* A thread that wakes a parked worker this soon after waking another wakes them all. */
#define WAKE_BURST_NS 100000

rt_state rt;
RT_TLS rt_worker *rt_tls_worker;
RT_TLS rt_ctx *rt_tls_ctx;
static RT_TLS uint32_t tls_worker_id;

static void (*entry_main)(int, char **);
static void (*entry_node)(uint32_t, int, char **);
static void (*entry_worker)(uint32_t, uint32_t, int, char **);
static _Atomic int in_artsRT;

/* The start gate: workers meet after initPerWorker; artsRT can abort it. */
static struct {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  uint32_t arrived;
  int aborted;
} gate;

/* ------------------------------------------------------------------ errors */

static RT_NORETURN void die(artsGuid_t guid, int with_guid, const char *fmt, va_list ap) {
  char message[1024];
  vsnprintf(message, sizeof message, fmt, ap);
  fflush(stdout);
  if (with_guid)
    fprintf(stderr, "carts runtime: error: %s (guid 0x%016llx)\n", message, (unsigned long long)guid);
  else
    fprintf(stderr, "carts runtime: error: %s\n", message);
  fflush(stderr);
  /* Not exit(): other workers are still running program code and the library destructors of
     the host process must not run under them. */
  _exit(2);
}

void rt_fatal(artsGuid_t guid, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  die(guid, 1, fmt, ap);
}

void rt_fatal_plain(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  die(0, 0, fmt, ap);
}

void rt_check_remote(uint32_t node, artsGuid_t guid, const char *api) {
  if (RT_UNLIKELY(!rt.net || node >= rt.nodes))
    rt_fatal(guid, "%s: node %u is not this node and no other node is reachable", api, node);
}

/* ------------------------------------------------------------------ locks */

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}


void rt_lock_contended(rt_lock *l) {
  for (unsigned spins = 0;; spins++) {
    if (!atomic_load_explicit(&l->held, memory_order_relaxed) &&
        !atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
      return;
    if (spins < 4096)
      cpu_relax();
    else
      sched_yield();
  }
}

/* ------------------------------------------------------------------ parking */


/* How far an idle worker looks for work (work_visible, steal). */
enum {
  LOOK_OWN,    /* its own deque and mailbox */
  LOOK_OTHERS, /* also the others' deques, and the mailboxes of workers that are busy */
  LOOK_STALE,  /* also the mailboxes of idle workers: their owner has not emptied them for
                  a while (its thread was descheduled, or it sleeps) */
};

/* An idle worker looks into parked workers' mailboxes after this long. An owner that polls
   empties its mailbox within a microsecond. */
#define STALE_MAIL_NS 20000

/* Whether other workers may take `w`'s mail: while it runs something else, or (`stale`: the
   taker has been idle for long) while it is parked. */
static inline int mail_takeable(rt_worker *w, int stale) {
  return atomic_load_explicit(&w->busy, memory_order_relaxed) ||
         (stale && atomic_load_explicit(&w->sleeping, memory_order_relaxed));
}

/* Whether the calling worker (`self`, NULL for other threads) could find something to run,
   looking as far as `look` says. A mailbox's line is read only when its owner is busy, or
   asleep while the caller has been idle long: reading every mailbox in every idle worker's
   loop made each task a creator routes cost several cache-line transfers. */

static int work_visible(rt_worker *self, int look) {
  if (self && (self->next || rt_deque_nonempty(&self->deque) ||
               atomic_load_explicit(&self->mail_count, memory_order_relaxed) > 0))
    return 1;
  if (look == LOOK_OWN)
    return 0;
  if (atomic_load_explicit(&rt.inject_count, memory_order_relaxed) > 0)
    return 1;
  for (uint32_t i = 0; i < rt.threads; i++) {
    rt_worker *w = &rt.workers[i];
    if (w == self)
      continue;
    if (rt_deque_nonempty(&w->deque))
      return 1;
    if (mail_takeable(w, look == LOOK_STALE) &&
        atomic_load_explicit(&w->mail_count, memory_order_relaxed) > 0)
      return 1;
  }
  return 0;
}

static inline int should_stop_idling(rt_epoch *e, int look) {
  return work_visible(rt_tls_worker, look) ||
         atomic_load_explicit(&rt.shutdown, memory_order_relaxed) ||
         (e && atomic_load_explicit(&e->done, memory_order_relaxed));
}

static long futex(uint32_t op, uint32_t value, const struct timespec *until, uint32_t bits) {
  return syscall(SYS_futex, (uint32_t *)&rt.park_word, op, value, until, NULL, bits);
}

/* A worker's bit in the parking word's wait masks (workers 32 apart share one). */
static inline uint32_t park_bit(const rt_worker *w) { return UINT32_C(1) << (w->id % 32); }

/* Bump the word (a worker about to wait then returns at once) and wake the parked workers
   whose bit is in `bits`. */
static void wake_bits(uint32_t bits) {
  atomic_fetch_add_explicit(&rt.park_word, 1, memory_order_seq_cst);
  futex(FUTEX_WAKE_BITSET_PRIVATE, INT_MAX, NULL, bits);
}

/* Wake worker `w` if it is parked. The caller made work visible with a full barrier before,
   and the worker announces `sleeping` with one before it re-checks for work: one of the two
   sees the other. */
static inline void wake_worker(rt_worker *w) {
  if (atomic_load_explicit(&w->sleeping, memory_order_seq_cst))
    wake_bits(park_bit(w));
}

void rt_sched_wake_all(void) {
  atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&rt.sleepers, memory_order_seq_cst) > 0)
    wake_bits(FUTEX_BITSET_MATCH_ANY);
}

/* A routed task's worker is parked: wake it, or every parked worker when the caller woke
   another one just before. */
static void wake_routed(rt_worker *to) {
  if (!atomic_load_explicit(&to->sleeping, memory_order_seq_cst))
    return;
  static RT_TLS uint64_t last_wake_ns;
  uint64_t now = rt_now_ns();
  int burst = now - last_wake_ns < WAKE_BURST_NS &&
              atomic_load_explicit(&rt.sleepers, memory_order_relaxed) > 1;
  last_wake_ns = now;
  wake_bits(burst ? FUTEX_BITSET_MATCH_ANY : park_bit(to));
}

/* Work anyone may take appeared: wake one parked worker, if there is one. */
static inline void wake_one(void) {
  atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&rt.sleepers, memory_order_relaxed) <= 0)
    return;
  rt_worker *self = rt_tls_worker;
  uint32_t start = self ? self->id + 1 : 0;
  for (uint32_t i = 0; i < rt.threads; i++) {
    rt_worker *w = &rt.workers[(start + i) % rt.threads];
    if (atomic_load_explicit(&w->sleeping, memory_order_seq_cst)) {
      wake_worker(w);
      return;
    }
  }
}

/* Nothing to run: poll for a while, then sleep until work appears, `e` ends or shutdown.
   Workers alone wait here. The last worker to go idle watches for a run that can no longer
   progress. */
static void idle_wait(rt_epoch *e) {
  uint64_t start = rt_now_ns(), spin = (uint64_t)rt.cfg.spin_ns, spent = 0;
  rt_worker *self = rt_tls_worker;
  for (;;) {
    /* the worker's own work every round, the others' every eighth */
    int far = spent > STALE_MAIL_NS ? LOOK_STALE : LOOK_OTHERS;
    for (int i = 0; i < 32; i++) {
      if (should_stop_idling(e, (i & 7) == 0 ? far : LOOK_OWN)) {
        self->take_stale_mail = far == LOOK_STALE;
        if (rt.cfg.profile)
          self->idle_ns += rt_now_ns() - start;
        return;
      }
      cpu_relax();
    }
    spent = rt_now_ns() - start;
    if (spent > spin)
      break;
    if (spent > 50000)
      sched_yield(); /* on a busy machine, let runnable threads (ours too) have the core */
  }
  self->parks++;

  uint32_t seq = atomic_load_explicit(&rt.park_word, memory_order_seq_cst);
  atomic_fetch_add_explicit(&rt.sleepers, 1, memory_order_seq_cst);
  atomic_store_explicit(&self->sleeping, 1, memory_order_seq_cst);
  if (e)
    atomic_fetch_add_explicit(&e->waiters, 1, memory_order_seq_cst);
  atomic_thread_fence(memory_order_seq_cst); /* before the re-check's relaxed reads */
  int stuck = 0;
  self->take_stale_mail = 1; /* it waited long: any mailbox is fair game afterwards */
  if (!should_stop_idling(e, LOOK_STALE)) {
    int watch = rt.cfg.deadlock_s > 0 && !rt.net &&
                atomic_load_explicit(&rt.idle_workers, memory_order_seq_cst) == (int32_t)rt.threads;
    uint64_t wait_ns = watch ? (uint64_t)(rt.cfg.deadlock_s * 1e9) : PARK_BACKSTOP_NS;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)(wait_ns / 1000000000u);
    until.tv_nsec += (long)(wait_ns % 1000000000u);
    until.tv_sec += until.tv_nsec / 1000000000;
    until.tv_nsec %= 1000000000;
    /* Returns when woken, at once if the word moved since `seq` was read, at the deadline,
       or spuriously (a signal; a wake-up of another worker sharing the bit): the caller
       looks for work again either way. */
    int timed_out = futex(FUTEX_WAIT_BITSET_PRIVATE, seq, &until, park_bit(self)) == -1 &&
                    errno == ETIMEDOUT;
    stuck = watch && timed_out && atomic_load_explicit(&rt.park_word, memory_order_relaxed) == seq;
  }
  if (e)
    atomic_fetch_sub_explicit(&e->waiters, 1, memory_order_relaxed);
  atomic_store_explicit(&self->sleeping, 0, memory_order_relaxed);
  atomic_fetch_sub_explicit(&rt.sleepers, 1, memory_order_relaxed);
  if (rt.cfg.profile)
    self->idle_ns += rt_now_ns() - start;
  if (stuck && atomic_load_explicit(&rt.idle_workers, memory_order_seq_cst) == (int32_t)rt.threads &&
      !should_stop_idling(e, LOOK_STALE))
    rt_report_deadlock();
}

static void idle(rt_epoch *e) {
  atomic_fetch_add_explicit(&rt.idle_workers, 1, memory_order_seq_cst);
  idle_wait(e);
  atomic_fetch_sub_explicit(&rt.idle_workers, 1, memory_order_seq_cst);
}

/* ------------------------------------------------------------------ ready tasks */

static void mail(rt_worker *to, rt_edt *t) {
  t->hdr.next = NULL;
  rt_lock_acquire(&to->mail_lock);
  if (to->mail_tail)
    to->mail_tail->hdr.next = &t->hdr;
  else
    to->mail_head = t;
  to->mail_tail = t;
  /* seq_cst: the full barrier that orders this before the pusher's read of `sleepers` (a
     locked add on x86, so no separate fence waits for the unlock's store) */
  atomic_fetch_add_explicit(&to->mail_count, 1, memory_order_seq_cst);
  rt_lock_release(&to->mail_lock);
}

static rt_edt *mail_take(rt_worker *from) {
  if (atomic_load_explicit(&from->mail_count, memory_order_relaxed) == 0)
    return NULL;
  rt_lock_acquire(&from->mail_lock);
  rt_edt *t = from->mail_head;
  if (t) {
    from->mail_head = (rt_edt *)t->hdr.next;
    if (!from->mail_head)
      from->mail_tail = NULL;
    atomic_fetch_sub_explicit(&from->mail_count, 1, memory_order_relaxed);
  }
  rt_lock_release(&from->mail_lock);
  return t;
}

void rt_sched_push(rt_edt *t) {
  rt_worker *w = rt_tls_worker;
  if (RT_UNLIKELY(rt_tracing()))
    t->ready_ns = rt_now_ns();
  if (t->worker != RT_ANY_WORKER) {
    uint32_t target = rt.cfg.route_follows
                          ? atomic_load_explicit(&rt.route_home[t->worker], memory_order_relaxed)
                          : t->worker;
    if (w == NULL || w->id != target) {
      rt_worker *to = &rt.workers[target];
      mail(to, t); /* its seq_cst add orders the mail before the read of `sleeping` */
      wake_routed(to);
      return;
    }
    if (w->releasing && !w->next && rt_db_held_bytes(t) <= rt.keep_bytes) {
      w->next = t;
      return;
    }
  }
  if (RT_LIKELY(w != NULL)) {
    rt_deque_push(&w->deque, t);
  } else {
    t->hdr.next = NULL;
    rt_lock_acquire(&rt.inject_lock);
    if (rt.inject_tail)
      rt.inject_tail->hdr.next = &t->hdr;
    else
      rt.inject_head = t;
    rt.inject_tail = t;
    atomic_fetch_add_explicit(&rt.inject_count, 1, memory_order_relaxed);
    rt_lock_release(&rt.inject_lock);
  }
  wake_one();
}

static rt_edt *inject_pop(void) {
  rt_lock_acquire(&rt.inject_lock);
  rt_edt *t = rt.inject_head;
  if (t) {
    rt.inject_head = (rt_edt *)t->hdr.next;
    if (!rt.inject_head)
      rt.inject_tail = NULL;
    atomic_fetch_sub_explicit(&rt.inject_count, 1, memory_order_relaxed);
  }
  rt_lock_release(&rt.inject_lock);
  return t;
}

static inline uint32_t next_random(rt_worker *w) {
  uint64_t x = w->rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  w->rng = x;
  return (uint32_t)(x >> 32);
}

static rt_edt *steal(rt_worker *w, uint32_t n, int stale);

static rt_edt *find_work(rt_worker *w) {
  int stale = w->take_stale_mail;
  w->take_stale_mail = 0;
  rt_edt *t = w->next;
  if (t) {
    w->next = NULL;
    w->taken = RT_TAKEN_OWN;
    return t;
  }
  t = rt_deque_take(&w->deque);
  if (t) {
    w->taken = RT_TAKEN_OWN;
    return t;
  }
  if ((t = mail_take(w))) {
    w->mail_taken++;
    w->taken = RT_TAKEN_MAIL;
    return t;
  }
  if (atomic_load_explicit(&rt.inject_count, memory_order_relaxed) > 0 && (t = inject_pop())) {
    w->taken = RT_TAKEN_INJECTED;
    return t;
  }
  uint32_t n = rt.threads;
  if (n == 1)
    return NULL;
  return steal(w, n, stale);
}

static rt_edt *steal(rt_worker *w, uint32_t n, int stale) {
  rt_edt *t;
  uint32_t start = next_random(w) % n;
  for (int round = 0; round < 4; round++) {
    int lost_race = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t victim = (start + i) % n;
      if (victim == w->id)
        continue;
      t = rt_deque_steal(&rt.workers[victim].deque);
      if (t == RT_STEAL_ABORT)
        lost_race = 1;
      else if (t) {
        w->stolen++;
        w->taken = RT_TAKEN_STOLEN;
        return t;
      }
    }
    if (!lost_race)
      break;
  }
  /* Last, the mail of workers that are busy with something else, or (after a long idle
     wait) asleep. A worker that polls will take its own in a moment, on warm caches. */
  for (uint32_t i = 0; i < n; i++) {
    rt_worker *victim = &rt.workers[(start + i) % n];
    if (victim != w && mail_takeable(victim, stale) && (t = mail_take(victim))) {
      w->mail_stolen++;
      w->taken = RT_TAKEN_MAIL_STOLEN;
      return t;
    }
  }
  return NULL;
}

static void run_ready(rt_worker *w, rt_edt *t) {
  atomic_store_explicit(&w->busy, 1, memory_order_relaxed);
  w->ran++;
  if (rt.cfg.route_follows && t->worker != RT_ANY_WORKER) {
    _Atomic uint32_t *home = &rt.route_home[t->worker];
    if (atomic_load_explicit(home, memory_order_relaxed) != w->id)
      atomic_store_explicit(home, w->id, memory_order_relaxed);
  }
  if (RT_UNLIKELY(rt.cfg.profile || rt_tracing())) {
    rt_edt copy = *t; /* rt_edt_run frees it */
    rt_taken taken = (rt_taken)w->taken; /* tasks it waits for inside change w->taken */
    /* `end` is when the task's code returned: before its releases and its epoch's count,
       so whatever those let run starts after it in the trace */
    uint64_t start = rt_now_ns(), end;
    rt_edt_run(t, &end);
    w->run_ns += end - start;
    if (rt_tracing())
      rt_trace_record(w, &copy, taken, start, end);
  } else {
    rt_edt_run(t, NULL);
  }
  atomic_store_explicit(&w->busy, 0, memory_order_relaxed);
}

/* A task kept for this worker's next run goes where any worker can take it: the caller
   returns into a task that may run on for long before it looks for work again. */
static void give_up_next(rt_worker *w) {
  rt_edt *t = w->next;
  if (t) {
    w->next = NULL;
    rt_deque_push(&w->deque, t);
    wake_one();
  }
}

int rt_sched_help_until(rt_epoch *e) {
  rt_worker *w = rt_tls_worker;
  /* the task waiting here is not busy: its worker looks for work like an idle one */
  int was_busy = atomic_exchange_explicit(&w->busy, 0, memory_order_relaxed);
  int ok = 1;
  uint64_t start = rt.cfg.profile ? rt_now_ns() : 0;
  while (!atomic_load_explicit(&e->done, memory_order_acquire)) {
    if (atomic_load_explicit(&rt.shutdown, memory_order_relaxed)) {
      if (atomic_load_explicit(&rt.exited, memory_order_acquire))
        longjmp(w->exit_jmp, 1); /* the waiting task must not go on after exit() */
      ok = 0;
      break;
    }
    rt_edt *t = find_work(w);
    if (t)
      run_ready(w, t);
    else
      idle(e);
  }
  give_up_next(w);
  atomic_store_explicit(&w->busy, was_busy, memory_order_relaxed);
  if (RT_UNLIKELY(rt.cfg.profile)) {
    w->waits++;
    w->wait_ns += rt_now_ns() - start;
  }
  return ok;
}

void rt_sched_run_ready_while(rt_epoch *e, int64_t above) {
  rt_worker *w = rt_tls_worker;
  if (!w)
    return;
  int was_busy = atomic_load_explicit(&w->busy, memory_order_relaxed);
  while (rt_epoch_outstanding(e) > above) {
    rt_edt *t = find_work(w);
    if (!t)
      break;
    run_ready(w, t);
  }
  give_up_next(w);
  atomic_store_explicit(&w->busy, was_busy, memory_order_relaxed);
}

void rt_request_exit(int code) {
  int first = 0;
  if (atomic_compare_exchange_strong(&rt.exited, &first, 1))
    atomic_store(&rt.exit_code, code);
  rt_request_shutdown();
}

void cartsExit(int code) {
  fflush(NULL);
  rt_worker *w = rt_tls_worker;
  if (!rt.net || !atomic_load(&rt.running) || !w)
    exit(code); /* one node: the process is the program's */
  if (rt.node != 0)
    rt_net_exit(code);
  rt_request_exit(code);
  longjmp(w->exit_jmp, 1);
}

void rt_request_shutdown(void) {
  atomic_store_explicit(&rt.shutdown, 1, memory_order_seq_cst);
  rt_sched_wake_all();
  if (rt.net && rt.node == 0)
    rt_net_shutdown_all(); /* node 0 runs the program: when it stops, every node stops */
}

/* ------------------------------------------------------------------ workers */

static void main_edt(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv) {
  (void)paramc, (void)depc, (void)depv;
  entry_main((int)paramv[0], (char **)(uintptr_t)paramv[1]);
}

/* Run an init callback as if inside a task counted in the top-level epoch. */
#define RUN_AS_TOP_LEVEL_TASK(call)                                                              \
  do {                                                                                           \
    rt_ctx ctx_ = {.edt = NULL, .enrolled = rt.top, .stack_top = NULL};                          \
    rt_tls_ctx = &ctx_;                                                                          \
    call;                                                                                        \
    rt_tls_ctx = NULL;                                                                           \
    rt_ctx_release_epochs(&ctx_);                                                                \
  } while (0)

static int gate_wait(void) {
  pthread_mutex_lock(&gate.lock);
  if (++gate.arrived == rt.threads)
    pthread_cond_broadcast(&gate.cond);
  while (gate.arrived < rt.threads && !gate.aborted)
    pthread_cond_wait(&gate.cond, &gate.lock);
  int ok = !gate.aborted;
  pthread_mutex_unlock(&gate.lock);
  return ok;
}

static void *worker_main(void *arg) {
  rt_worker *w = arg;
  if (setjmp(w->exit_jmp)) { /* the program called exit() on several nodes */
    rt_tls_worker = NULL;
    return NULL;
  }
  rt_tls_worker = w;
  tls_worker_id = w->id;
  rt_edt_pool_prime(w);
  if (entry_worker)
    RUN_AS_TOP_LEVEL_TASK(entry_worker(rt.node, w->id, rt.argc, rt.argv));
  /* Only node 0 runs the program; the other nodes run what they are sent until node 0 tells
     them to stop (their top-level epoch stays held). */
  if (gate_wait() && w->id == 0 && rt.node == 0) {
    /* artsMain is the first task, on worker 0; then the runtime's hold on the top-level epoch
       goes, so the run ends by itself once artsMain and everything it started are done. */
    if (entry_main) {
      uint64_t params[2] = {(uint64_t)rt.argc, (uint64_t)(uintptr_t)rt.argv};
      atomic_fetch_add_explicit(&rt.top->pending, 1, memory_order_relaxed);
      rt_edt *t = rt_edt_new(main_edt, rt_guid_make(ARTS_EDT, rt.node, rt_mint_key()), 2, params, 0,
                             rt.top);
      rt_epoch_finish_one(rt.top);
      w->taken = RT_TAKEN_MAIN;
      run_ready(w, t);
    } else {
      rt_epoch_finish_one(rt.top);
    }
  }
  while (!atomic_load_explicit(&rt.shutdown, memory_order_acquire)) {
    rt_edt *t = find_work(w);
    if (t)
      run_ready(w, t);
    else
      idle(NULL);
  }
  rt_tls_worker = NULL;
  return NULL;
}

/* ------------------------------------------------------------------ lifecycle */

typedef struct edt_set {
  rt_edt **items;
  size_t size, cap;
} edt_set;

static void edt_set_add(rt_edt *t, void *arg) {
  edt_set *set = arg;
  if (set->size == set->cap) {
    size_t cap = set->cap ? set->cap * 2 : 64;
    rt_edt **items = realloc(set->items, cap * sizeof *items);
    if (!items)
      return; /* leak rather than fail at teardown */
    set->items = items;
    set->cap = cap;
  }
  set->items[set->size++] = t;
}

static void drain_object(rt_obj *o, void *arg) {
  uint32_t type = artsGuidGetType(o->guid);
  if (type == ARTS_EDT)
    edt_set_add((rt_edt *)o, arg);
  else if (type == ARTS_EPOCH)
    free(o);
  else
    rt_db_free((rt_db *)o, edt_set_add, arg);
}

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (rt_edt *const *)a, y = (uintptr_t) * (rt_edt *const *)b;
  return (x > y) - (x < y);
}

/* profile=1: what each worker did, on stderr. */
static void print_profile(void) {
  /* run-ms counts a task that waits inside another one twice; wait-ms is the time tasks
     spent in artsWaitOnHandle (running others' tasks meanwhile) */
  fprintf(stderr, "carts runtime: profile (node %u): worker  tasks  stolen  mail  mail-stolen  "
                  "parks  idle-ms   run-ms  waits  wait-ms\n", rt.node);
  for (uint32_t i = 0; i < rt.threads; i++) {
    rt_worker *w = &rt.workers[i];
    fprintf(stderr, "carts runtime: profile %8u %6llu %7llu %5llu %12llu %6llu %8.2f %8.2f %6llu %8.2f\n",
            i, (unsigned long long)w->ran, (unsigned long long)w->stolen,
            (unsigned long long)w->mail_taken, (unsigned long long)w->mail_stolen,
            (unsigned long long)w->parks, (double)w->idle_ns / 1e6, (double)w->run_ns / 1e6,
            (unsigned long long)w->waits, (double)w->wait_ns / 1e6);
  }
}

/* Free everything the run left behind: tasks never run, datablocks, epochs still open. */
static void teardown(void) {
  edt_set unrun = {0};
  for (uint32_t i = 0; i < rt.threads; i++) {
    rt_edt *t;
    while ((t = rt_deque_take(&rt.workers[i].deque)))
      rt_edt_free(t);
    if (rt.workers[i].next)
      rt_edt_free(rt.workers[i].next);
  }
  for (uint32_t i = 0; i < rt.threads; i++) {
    for (rt_edt *t = rt.workers[i].mail_head, *next; t; t = next) {
      next = (rt_edt *)t->hdr.next;
      rt_edt_free(t);
    }
  }
  for (rt_edt *t = rt.inject_head, *next; t; t = next) {
    next = (rt_edt *)t->hdr.next;
    rt_edt_free(t);
  }
  rt.inject_head = rt.inject_tail = NULL;
  /* A task still waiting may be both in the table and queued on datablocks: free it once. */
  rt_table_drain(drain_object, &unrun);
  qsort(unrun.items, unrun.size, sizeof *unrun.items, by_address);
  for (size_t i = 0; i < unrun.size; i++)
    if (i == 0 || unrun.items[i] != unrun.items[i - 1])
      rt_edt_free(unrun.items[i]);
  free(unrun.items);
  rt_edt_pools_destroy();
  rt_table_destroy();
  for (uint32_t i = 0; i < rt.threads; i++) {
    rt_deque_destroy(&rt.workers[i].deque);
  }
  free(rt.workers);
  rt.workers = NULL;
  free(rt.route_home);
  rt.route_home = NULL;
  rt.top = NULL;
  pthread_mutex_destroy(&gate.lock);
  pthread_cond_destroy(&gate.cond);
}

static void reset_state(const rt_config *cfg) {
  rt.cfg = *cfg;
  rt.node = cfg->node;
  rt.nodes = cfg->node_count;
  rt.threads = cfg->threads;
  rt.net = rt_net_installed();
  atomic_store(&rt.started, 0);
  atomic_store(&rt.shutdown, 0);
  atomic_store(&rt.exited, 0);
  atomic_store(&rt.exit_code, 0);
  atomic_store(&rt.init_key, 1);
  atomic_store(&rt.run_seq, 0);
  atomic_store(&rt.sleepers, 0);
  atomic_store(&rt.idle_workers, 0);
  atomic_store(&rt.inject_count, 0);
  rt.inject_head = rt.inject_tail = NULL;

  rt_lock_init(&rt.inject_lock);
  pthread_mutex_init(&gate.lock, NULL);
  pthread_cond_init(&gate.cond, NULL);
  gate.arrived = 0;
  gate.aborted = 0;

  rt_table_init();
  rt.workers = aligned_alloc(RT_CACHE_LINE, sizeof(rt_worker) * rt.threads);
  if (!rt.workers)
    rt_fatal_plain("out of memory for %u workers", rt.threads);
  memset(rt.workers, 0, sizeof(rt_worker) * rt.threads);
  size_t homes = (rt.threads * sizeof *rt.route_home + RT_CACHE_LINE - 1) / RT_CACHE_LINE * RT_CACHE_LINE;
  rt.route_home = aligned_alloc(RT_CACHE_LINE, homes);
  if (!rt.route_home)
    rt_fatal_plain("out of memory for %u workers", rt.threads);
  for (uint32_t i = 0; i < rt.threads; i++)
    atomic_init(&rt.route_home[i], i);
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  rt.keep_bytes = 2 * (l2 > 0 ? (uint64_t)l2 : UINT64_C(1) << 20);
  for (uint32_t i = 0; i < rt.threads; i++) {
    rt_worker *w = &rt.workers[i];
    w->id = i;
    w->rng = UINT64_C(0x9E3779B97F4A7C15) * (i + 1);
    rt_deque_init(&w->deque, DEQUE_INITIAL_SIZE);
    rt_lock_init(&w->mail_lock);
  }
}

int artsRT(int argc, char **argv) {
  int idle_rt = 0;
  if (!atomic_compare_exchange_strong(&in_artsRT, &idle_rt, 1)) {
    fprintf(stderr, "carts runtime: error: artsRT called while a run is in progress\n");
    return 1;
  }
  rt_config cfg;
  if (rt_config_load(&cfg) || rt_trace_open(&cfg)) {
    atomic_store(&in_artsRT, 0);
    return 1;
  }
  reset_state(&cfg);
  rt.argc = argc;
  rt.argv = argv;
  atomic_store(&rt.running, 1);

  rt.top = rt_epoch_new(NULL, NULL_GUID, 0);
  rt.top->is_top = 1;
  if (entry_node)
    RUN_AS_TOP_LEVEL_TASK(entry_node(rt.node, argc, argv));
  atomic_store_explicit(&rt.started, 1, memory_order_release);
  if (rt.net)
    rt_net_run_started(); /* messages from other nodes are applied from now on */

  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)rt.cfg.stack_size);
  uint32_t created = 0;
  int status = 0;
  for (; created < rt.threads; created++) {
    int err = pthread_create(&rt.workers[created].thread, &attr, worker_main, &rt.workers[created]);
    if (err) {
      fprintf(stderr, "carts runtime: error: cannot start worker %u of %u: %s\n", created,
              rt.threads, strerror(err));
      status = 1;
      atomic_store(&rt.shutdown, 1);
      pthread_mutex_lock(&gate.lock);
      gate.aborted = 1;
      pthread_cond_broadcast(&gate.cond);
      pthread_mutex_unlock(&gate.lock);
      break;
    }
  }
  pthread_attr_destroy(&attr);
  for (uint32_t i = 0; i < created; i++)
    pthread_join(rt.workers[i].thread, NULL);

  if (rt.net) {
    rt_net_run_ended(); /* no message is applied any more */
    rt_edt_copies_clear();
  }
  atomic_store(&rt.running, 0);
  if (rt.cfg.profile)
    print_profile();
  if (rt_trace_write())
    status = 1;
  teardown();
  tls_worker_id = 0;
  if (atomic_load(&rt.exited))
    status = atomic_load(&rt.exit_code);
  atomic_store(&in_artsRT, 0);
  return status;
}

void artsShutdown(void) {
  if (!atomic_load(&rt.running))
    return;
  rt_request_shutdown();
}

void artsSetEntryPoints(void (*artsMain)(int, char **), void (*initPerNode)(uint32_t, int, char **),
                        void (*initPerWorker)(uint32_t, uint32_t, int, char **)) {
  entry_main = artsMain;
  entry_node = initPerNode;
  entry_worker = initPerWorker;
}

uint32_t artsGetCurrentNode(void) { return rt.node; }
uint32_t artsGetTotalNodes(void) { return rt.nodes ? rt.nodes : 1; }
uint32_t artsGetCurrentWorker(void) { return tls_worker_id; }
uint32_t artsGetTotalWorkers(void) { return rt.threads; }
