/* Tasks (EDTs): creation, slots, execution.

   A task is one allocation: the header, a copy of its parameters, its dependence slots (what
   the task function sees) and one word of bookkeeping per slot. It sits in the GUID table
   while some slot is unclaimed (claims check range and double use under the shard lock);
   after the last claim only the datablocks it waits on know it, and the last satisfied slot
   hands it to the scheduler. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_POPULATE, MADV_HUGEPAGE */
#include "internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The lowering reads depv as an array of {i64 guid, i32 mode, ptr ptr}. */
_Static_assert(sizeof(artsEdtDep_t) == 24 && offsetof(artsEdtDep_t, ptr) == 16,
               "artsEdtDep_t layout is part of the ABI the compiler emits");
/* arts-to-llvm writes artsDbRun as five words, the last first_slot | mode << 32. */
_Static_assert(sizeof(artsDbRun) == 40 && offsetof(artsDbRun, first_slot) == 32 &&
                   offsetof(artsDbRun, mode) == 36,
               "artsDbRun layout is part of the ABI the compiler emits");

/* Tasks up to this size come from the creating worker's pool: a parallel loop's creator
   makes every task and other workers end them, and malloc's arenas serialise that pattern
   (the frees go back to the creator's arena under its lock). The pool grows by slabs whose
   pages are mapped in one call: a creator that makes thousands of tasks ahead of their
   dependences would otherwise take a page fault every few tasks, each one also stalling the
   other workers' faults on the process's memory map. Every worker maps its first slab when
   it starts (rt_edt_pool_prime): a worker whose first creation comes in the middle of a run
   (a launcher task) waited 40 us to over 1 ms for that mapping while the other workers took
   page faults on fresh datablocks, since mapping waits for the faults under way. A task of
   five dependences and eleven parameter words (Task Bench's stencil: four element tokens and
   the grid) takes 592 bytes: with 512-byte entries it went to malloc, and the one creating
   thread spent most of its time there; 768-byte entries (12 cache lines) took its
   METG(50%) on 16 cores from 10.0-10.5 to 5.6-5.8 us. */
#define POOLED_TASK_BYTES 768
#define SLAB_FIRST_TASKS 256u
#define SLAB_MAX_TASKS 2048u

typedef struct rt_slab {
  struct rt_slab *next;
  size_t bytes;
} rt_slab;

/* A new slab for `w`: its first entry holds the slab's header, the rest go to pool_local. */
static int pool_grow(rt_worker *w) {
  uint32_t tasks = w->slab_tasks ? w->slab_tasks : SLAB_FIRST_TASKS;
  size_t bytes = (size_t)tasks * POOLED_TASK_BYTES;
  void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
                   -1, 0);
  if (mem == MAP_FAILED)
    return 0;
  w->slab_tasks = tasks < SLAB_MAX_TASKS ? tasks * 2 : tasks;
  rt_slab *slab = mem;
  slab->bytes = bytes;
  slab->next = w->slabs;
  w->slabs = slab;
  for (uint32_t i = tasks - 1; i >= 1; i--) {
    rt_edt *t = (rt_edt *)((char *)mem + (size_t)i * POOLED_TASK_BYTES);
    t->hdr.next = &w->pool_local->hdr;
    w->pool_local = t;
  }
  return 1;
}

void rt_edt_pool_prime(rt_worker *w) {
  if (!w->slabs)
    pool_grow(w); /* without memory now, the first creation tries again */
}

static rt_edt *pool_take(rt_worker *w) {
  rt_edt *t = w->pool_local;
  if (!t) {
    t = atomic_exchange_explicit(&w->pool_returned, NULL, memory_order_acquire);
    if (!t) {
      if (!pool_grow(w))
        return NULL;
      t = w->pool_local;
    }
  }
  w->pool_local = (rt_edt *)t->hdr.next;
  /* The next one was freed by another worker and sits in its cache: ask for all its lines
     (for writing) now, so that the transfers overlap this task's creation. */
  if (w->pool_local)
    for (size_t line = 0; line < POOLED_TASK_BYTES; line += RT_CACHE_LINE)
      __builtin_prefetch((char *)w->pool_local + line, 1);
  return t;
}

void rt_edt_free(rt_edt *t) {
  if (!t->pool) {
    free(t);
    return;
  }
  rt_worker *owner = &rt.workers[t->pool - 1];
  if (owner == rt_tls_worker) {
    t->hdr.next = &owner->pool_local->hdr;
    owner->pool_local = t;
    return;
  }
  rt_edt *head = atomic_load_explicit(&owner->pool_returned, memory_order_relaxed);
  do
    t->hdr.next = &head->hdr;
  while (!atomic_compare_exchange_weak_explicit(&owner->pool_returned, &head, t,
                                                memory_order_release, memory_order_relaxed));
}

/* Pooled tasks live in their slabs: the lists are dropped and the slabs unmapped. */
void rt_edt_pools_destroy(void) {
  for (uint32_t i = 0; i < rt.threads; i++) {
    rt_worker *w = &rt.workers[i];
    atomic_store(&w->pool_returned, NULL);
    w->pool_local = NULL;
    for (rt_slab *slab = w->slabs, *next; slab; slab = next) {
      next = slab->next;
      munmap(slab, slab->bytes);
    }
    w->slabs = NULL;
    w->slab_tasks = 0;
  }
}

rt_edt *rt_edt_new(artsEdt_t fn, artsGuid_t guid, uint32_t paramc, const uint64_t *paramv,
                   uint32_t depc, rt_epoch *epoch) {
  size_t size = sizeof(rt_edt) + (size_t)paramc * sizeof(uint64_t) +
                (size_t)depc * (sizeof(artsEdtDep_t) + sizeof(uintptr_t) + sizeof(rt_request));
  rt_worker *w = rt_tls_worker;
  rt_edt *t = NULL;
  uint32_t pool = 0;
  if (w && size <= POOLED_TASK_BYTES && (t = pool_take(w)))
    pool = w->id + 1;
  else
    t = malloc(size);
  if (RT_UNLIKELY(!t))
    rt_fatal(guid, "out of memory for a task with %u parameters and %u dependences", paramc, depc);
  t->pool = pool;
  t->arrived = 0;
  t->hdr.guid = guid;
  t->hdr.next = NULL;
  t->fn = fn;
  t->epoch = epoch;
  t->paramc = paramc;
  t->depc = depc;
  t->unclaimed = depc;
  t->worker = RT_ANY_WORKER;
  t->ready_ns = 0;
  atomic_init(&t->unsatisfied, depc);
  t->depv = (artsEdtDep_t *)(t + 1);
  t->slot_state = (uintptr_t *)(t->depv + depc);
  t->requests = (rt_request *)(t->slot_state + depc);
  t->paramv = (uint64_t *)(t->requests + depc);
  if (paramc)
    memcpy(t->paramv, paramv, (size_t)paramc * sizeof(uint64_t));
  if (depc) {
    memset(t->depv, 0, (size_t)depc * sizeof(artsEdtDep_t));
    memset(t->slot_state, 0, (size_t)depc * sizeof(uintptr_t));
  }
  return t;
}

void rt_edt_satisfy(rt_edt *t, uint32_t slot, artsGuid_t guid, uint32_t mode, void *ptr) {
  t->depv[slot].guid = guid;
  t->depv[slot].mode = mode;
  t->depv[slot].ptr = ptr;
  if (atomic_fetch_sub_explicit(&t->unsatisfied, 1, memory_order_acq_rel) == 1)
    rt_sched_push(t);
}

/* Slots other nodes satisfied before the task itself arrived (its creation and the grant
   travel from different nodes). Kept in arrival order; replayed by rt_edt_publish. Guarded
   by the task's shard lock, which both sides hold. */
typedef struct rt_early {
  struct rt_early *next;
  artsGuid_t edt;
  uint32_t slot;
  uint32_t mode; /* a datablock mode, ARTS_SINGLE_VALUE or ARTS_NULL */
  uint64_t value;
  rt_remote_dep *dep;
} rt_early;

static pthread_mutex_t early_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_early *early_head;
static _Atomic uint32_t early_count;

/* Claim `slot` of `guid` under the shard lock. With `defer`, a task that is not here yet (and
   is routed here) gets the claim queued instead, and NULL is returned. */
static rt_edt *claim(artsGuid_t guid, uint32_t slot, uintptr_t state, const char *api,
                     rt_early *defer) {
  if (RT_UNLIKELY(artsGuidGetType(guid) != ARTS_EDT))
    rt_fatal(guid, "%s: not a task", api);
  rt_shard *s = rt_table_shard(guid);
  rt_lock_acquire(&s->lock);
  rt_edt *t = (rt_edt *)rt_shard_find(s, guid);
  if (RT_UNLIKELY(!t)) {
    if (defer) {
      pthread_mutex_lock(&early_lock);
      rt_early **tail = &early_head;
      while (*tail)
        tail = &(*tail)->next;
      defer->next = NULL;
      *tail = defer;
      atomic_fetch_add(&early_count, 1);
      pthread_mutex_unlock(&early_lock);
      rt_lock_release(&s->lock);
      return NULL;
    }
    rt_lock_release(&s->lock);
    if (rt_guid_was_minted(guid))
      rt_fatal(guid, "%s: slot %u of a task that has no unsatisfied slot left (it has run, is "
                     "ready, or was created with fewer dependences)",
               api, slot);
    rt_fatal(guid, "%s: unknown task", api);
  }
  if (RT_UNLIKELY(slot >= t->depc)) {
    uint32_t depc = t->depc;
    rt_lock_release(&s->lock);
    rt_fatal(guid, "%s: slot %u out of range (the task has %u dependences)", api, slot, depc);
  }
  if (RT_UNLIKELY(t->slot_state[slot] != RT_SLOT_FREE)) {
    rt_lock_release(&s->lock);
    rt_fatal(guid, "%s: slot %u is already satisfied", api, slot);
  }
  t->slot_state[slot] = state;
  if (--t->unclaimed == 0)
    rt_shard_remove(s, &t->hdr);
  rt_lock_release(&s->lock);
  return t;
}

rt_edt *rt_edt_claim(artsGuid_t guid, uint32_t slot, uintptr_t state, const char *api) {
  return claim(guid, slot, state, api, NULL);
}

static uintptr_t early_state(const rt_early *x) {
  return x->dep ? (uintptr_t)x->dep | RT_SLOT_REMOTE_TAG : RT_SLOT_SIGNAL;
}

static void early_satisfy(rt_edt *t, const rt_early *x) {
  if (x->dep)
    rt_edt_satisfy(t, x->slot, x->dep->db, x->mode, x->dep->copy->data);
  else if (x->mode == ARTS_SINGLE_VALUE)
    rt_edt_satisfy(t, x->slot, x->value, ARTS_SINGLE_VALUE, NULL);
  else
    rt_edt_satisfy(t, x->slot, NULL_GUID, ARTS_NULL, NULL);
}

void rt_edt_publish(rt_edt *t) {
  artsGuid_t guid = t->hdr.guid;
  rt_shard *s = rt_table_shard(guid);
  rt_early *mine = NULL, **mine_tail = &mine;
  rt_lock_acquire(&s->lock);
  rt_shard_insert(s, &t->hdr);
  /* A slot claim that missed the task queued itself under this same shard lock, so the
     count read here cannot miss it. */
  if (RT_LIKELY(atomic_load_explicit(&early_count, memory_order_relaxed) == 0)) {
    rt_lock_release(&s->lock);
    return;
  }
  pthread_mutex_lock(&early_lock);
  for (rt_early **link = &early_head; *link;) {
    rt_early *x = *link;
    if (x->edt == guid) {
      *link = x->next;
      x->next = NULL;
      *mine_tail = x;
      mine_tail = &x->next;
      atomic_fetch_sub(&early_count, 1);
    } else {
      link = &x->next;
    }
  }
  pthread_mutex_unlock(&early_lock);
  rt_lock_release(&s->lock);
  while (mine) {
    rt_early *next = mine->next;
    rt_edt *claimed = claim(guid, mine->slot, early_state(mine), "a satisfied slot", NULL);
    early_satisfy(claimed, mine);
    free(mine);
    mine = next;
  }
}

static void remote_satisfy(rt_early *x) {
  rt_edt *t = claim(x->edt, x->slot, early_state(x), "a message from another node", x);
  if (t) {
    early_satisfy(t, x);
    free(x);
  }
}

/* ------------------------------------------------------------------ the copy cache

   The newest copy this node holds of each datablock of another node, with its version. The
   owner ships nothing for a grant whose version the node already holds (transport.h). */

#define CACHE_BUCKETS 256u

typedef struct cache_entry {
  struct cache_entry *next;
  artsGuid_t db;
  uint64_t version;
  rt_copy *copy; /* holds one reference */
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache[CACHE_BUCKETS];

/* Copies of 2 MiB and more get a mapping of their own with transparent huge pages, as
   datablock payloads do (db.c): a task sweeping another node's block many times (gemm's B
   on node 1) runs ~40% slower on 4 KiB pages. The header sits at the end of the 4 KiB page
   before the 2 MiB-aligned data. */
#define COPY_HUGE ((uint64_t)2 << 20)
#define COPY_HEAD ((size_t)4096)

static rt_copy *copy_alloc(uint64_t bytes) {
  if (rt.cfg.huge_pages && bytes >= COPY_HUGE && bytes <= UINT64_MAX / 4) {
    size_t len = (size_t)((bytes + 4095) & ~(uint64_t)4095), span = COPY_HEAD + len + COPY_HUGE;
    char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw != MAP_FAILED) {
      char *p = (char *)(((uintptr_t)raw + COPY_HEAD + COPY_HUGE - 1) & ~(uintptr_t)(COPY_HUGE - 1));
      char *start = p - COPY_HEAD;
      if (start > raw)
        munmap(raw, (size_t)(start - raw));
      if (raw + span > p + len)
        munmap(p + len, (size_t)(raw + span - (p + len)));
      madvise(p, len, MADV_HUGEPAGE); /* advice: no huge pages is no error */
      rt_copy *c = (rt_copy *)(p - offsetof(rt_copy, data));
      c->mapped = COPY_HEAD + len;
      return c;
    }
  }
  rt_copy *c = malloc(sizeof *c + (bytes ? bytes : 1));
  if (c)
    c->mapped = 0;
  return c;
}

static rt_copy *copy_new(artsGuid_t db, const void *data, uint64_t bytes) {
  rt_copy *c = copy_alloc(bytes);
  if (!c)
    rt_fatal(db, "out of memory for a copy of %llu bytes", (unsigned long long)bytes);
  atomic_init(&c->refs, 1);
  c->bytes = bytes;
  memcpy(c->data, data, bytes);
  return c;
}

static void copy_unref(rt_copy *c) {
  if (!c || atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) != 1)
    return;
  if (c->mapped)
    munmap(c->data - COPY_HEAD, (size_t)c->mapped);
  else
    free(c);
}

static cache_entry **cache_link(artsGuid_t db) {
  cache_entry **link = &cache[(db * UINT64_C(0x9E3779B97F4A7C15)) >> 56];
  while (*link && (*link)->db != db)
    link = &(*link)->next;
  return link;
}

/* Take the cached copy of `db` out of the cache if it is `version` (NULL if not). */
static rt_copy *cache_take(artsGuid_t db, uint64_t version) {
  pthread_mutex_lock(&cache_lock);
  cache_entry **link = cache_link(db), *e = *link;
  rt_copy *c = NULL;
  if (e) {
    *link = e->next;
    if (e->version == version)
      c = e->copy;
    else
      copy_unref(e->copy);
    free(e);
  }
  pthread_mutex_unlock(&cache_lock);
  return c;
}

/* A new reference to the cached copy of `db` if it is `version` (NULL if not). */
static rt_copy *cache_get(artsGuid_t db, uint64_t version) {
  pthread_mutex_lock(&cache_lock);
  cache_entry *e = *cache_link(db);
  rt_copy *c = e && e->version == version ? e->copy : NULL;
  if (c)
    atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
  pthread_mutex_unlock(&cache_lock);
  return c;
}

/* Cache `c` (one reference passes to the cache) as `db`'s copy at `version`. */
static void cache_put(artsGuid_t db, uint64_t version, rt_copy *c) {
  pthread_mutex_lock(&cache_lock);
  cache_entry **link = cache_link(db), *e = *link;
  rt_copy *old = NULL;
  if (!e) {
    e = calloc(1, sizeof *e);
    if (!e)
      rt_fatal(db, "out of memory for the copy cache");
    e->db = db;
    *link = e;
  } else {
    old = e->copy;
  }
  e->version = version;
  e->copy = c;
  pthread_mutex_unlock(&cache_lock);
  copy_unref(old);
}

void rt_edt_copies_clear(void) {
  pthread_mutex_lock(&cache_lock);
  for (unsigned b = 0; b < CACHE_BUCKETS; b++)
    for (cache_entry *e = cache[b], *next; e; e = next) {
      next = e->next;
      copy_unref(e->copy);
      free(e);
    }
  memset(cache, 0, sizeof cache);
  pthread_mutex_unlock(&cache_lock);
}

void rt_edt_remote_copy(artsGuid_t db, uint64_t version, const void *data, uint64_t bytes) {
  cache_put(db, version, copy_new(db, data, bytes));
}

void rt_edt_remote_grant(artsGuid_t edt, uint32_t slot, artsGuid_t db, uint32_t mode,
                         uint32_t owner, uint64_t version, uint64_t prev, int cached,
                         const void *data, uint64_t bytes) {
  rt_early *x = calloc(1, sizeof *x);
  rt_remote_dep *dep = calloc(1, sizeof *dep);
  if (!x || !dep)
    rt_fatal(db, "out of memory for a datablock from node %u", owner);
  rt_copy *c;
  if (mode == ARTS_DB_READ) {
    if (cached) {
      c = cache_get(db, version);
    } else {
      c = copy_new(db, data, bytes);
      atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
      cache_put(db, version, c);
    }
  } else if (mode == ARTS_DB_WRITE) {
    c = cache_take(db, prev);
    if (cached && c && atomic_load_explicit(&c->refs, memory_order_acquire) > 1) {
      rt_copy *mine = copy_new(db, c->data, c->bytes); /* readers still use the cached one */
      copy_unref(c);
      c = mine;
    } else if (!cached) {
      copy_unref(c);
      c = copy_new(db, data, bytes);
    }
  } else { /* CONCURRENT: a copy to change and one to compare with */
    copy_unref(cache_take(db, 0));
    c = copy_new(db, data, bytes);
    dep->was = malloc(bytes ? bytes : 1);
    if (!dep->was)
      rt_fatal(db, "out of memory for a copy of %llu bytes", (unsigned long long)bytes);
    memcpy(dep->was, data, bytes);
  }
  if (!c)
    rt_fatal(db, "internal error: node %u was told it holds version %llu of the datablock, "
                 "and it does not", rt.node, (unsigned long long)(mode == ARTS_DB_READ ? version : prev));
  dep->db = db;
  dep->mode = mode;
  dep->owner = owner;
  dep->version = version;
  dep->copy = c;
  x->edt = edt;
  x->slot = slot;
  x->mode = mode;
  x->dep = dep;
  remote_satisfy(x);
}

void rt_edt_remote_signal(artsGuid_t edt, uint32_t slot, uint32_t kind, uint64_t value) {
  if (kind != ARTS_NULL && kind != ARTS_SINGLE_VALUE)
    rt_fatal(edt, "artsSignalEdt: a datablock signal to a task on another node is not supported "
                  "(record the dependence with artsRecordDep)");
  rt_early *x = calloc(1, sizeof *x);
  if (!x)
    rt_fatal(edt, "out of memory for a signal");
  x->edt = edt;
  x->slot = slot;
  x->mode = kind;
  x->value = value;
  remote_satisfy(x);
}

void rt_edt_remote_create(artsEdt_t fn, artsGuid_t guid, uint32_t paramc, const uint64_t *paramv,
                          uint32_t depc, artsGuid_t epoch) {
  rt_epoch *e = rt_epoch_at(epoch, "a task from another node");
  rt_edt *t = rt_edt_new(fn, guid, paramc, paramv, depc, e);
  if (e->proxy) {
    rt_epoch_arrived(e);
    t->arrived = 1;
  }
  if (depc == 0)
    rt_sched_push(t);
  else
    rt_edt_publish(t);
}

/* Everything a creation does before the task is seen: checks, the epoch's count, the GUID and,
   on this node, the task itself (NULL when it was sent to another node). */
static rt_edt *create_task(artsEdt_t fn, uint32_t route, uint32_t paramc, uint64_t *paramv,
                           uint32_t depc, artsGuid_t epoch, const char *api, artsGuid_t *guid) {
  rt_check_running(api);
  if (RT_UNLIKELY(!fn))
    rt_fatal_plain("%s: null task function", api);
  if (RT_UNLIKELY(paramc && !paramv))
    rt_fatal_plain("%s: %u parameters but no parameter array", api, paramc);
  /* route = node + nodes * (1 + worker) asks for a worker on that node (plain node numbers
     ask for none); see arts.h */
  uint32_t worker = route / rt.nodes;
  route %= rt.nodes;
  rt_epoch *e = rt_epoch_enrol(epoch, api);
  *guid = rt_guid_make(ARTS_EDT, route, rt_mint_key());
  if (RT_UNLIKELY(!rt_route_is_local(route))) {
    rt_check_remote(route, *guid, api);
    /* Outside the epoch's home, through the home: it has counted the task (the enrolment
       above went there first) before the task can finish anywhere. */
    rt_net_create_edt(e->proxy ? e->home : route, *guid, fn, paramc, paramv, depc, e->hdr.guid);
    return NULL;
  }
  uint32_t asked = worker > 0 && rt.cfg.affinity ? (worker - 1) % rt.threads : RT_ANY_WORKER;
  if (asked != RT_ANY_WORKER)
    rt_sched_prefetch_mail(asked); /* overlap the mailbox's transfer with the task's setup */
  rt_edt *t = rt_edt_new(fn, *guid, paramc, paramv, depc, e);
  t->worker = asked;
  return t;
}

static artsGuid_t create(artsEdt_t fn, uint32_t route, uint32_t paramc, uint64_t *paramv,
                         uint32_t depc, artsGuid_t epoch, const char *api) {
  artsGuid_t guid;
  rt_edt *t = create_task(fn, route, paramc, paramv, depc, epoch, api, &guid);
  if (!t)
    return guid;
  if (depc == 0)
    rt_sched_push(t);
  else
    rt_edt_publish(t);
  return guid;
}

artsGuid_t artsEdtCreate(artsEdt_t fn, uint32_t route, uint32_t paramc, uint64_t *paramv,
                         uint32_t depc) {
  return create(fn, route, paramc, paramv, depc, NULL_GUID, "artsEdtCreate");
}

artsGuid_t artsEdtCreateWithEpoch(artsEdt_t fn, uint32_t route, uint32_t paramc, uint64_t *paramv,
                                  uint32_t depc, artsGuid_t epoch) {
  return create(fn, route, paramc, paramv, depc, epoch, "artsEdtCreateWithEpoch");
}

/* Signals aimed at a task owned by another node travel to it unchanged. */
static int forwarded(artsGuid_t edt, uint32_t slot, uint32_t kind, uint64_t value,
                     const char *api) {
  uint32_t node = artsGuidGetRank(edt);
  if (RT_LIKELY(rt_route_is_local(node)))
    return 0;
  rt_check_remote(node, edt, api);
  rt_net_signal(node, edt, slot, kind, value);
  return 1;
}

void rt_edt_signal_value(artsGuid_t edt, uint32_t slot, uint64_t value, const char *api) {
  if (forwarded(edt, slot, ARTS_SINGLE_VALUE, value, api))
    return;
  rt_edt *t = rt_edt_claim(edt, slot, RT_SLOT_SIGNAL, api);
  rt_edt_satisfy(t, slot, value, ARTS_SINGLE_VALUE, NULL);
}

void artsSignalEdtValue(artsGuid_t edt, uint32_t slot, uint64_t value) {
  rt_check_running("artsSignalEdtValue");
  rt_edt_signal_value(edt, slot, value, "artsSignalEdtValue");
}

void artsSignalEdtNull(artsGuid_t edt, uint32_t slot) {
  rt_check_running("artsSignalEdtNull");
  if (forwarded(edt, slot, ARTS_NULL, 0, "artsSignalEdtNull"))
    return;
  rt_edt *t = rt_edt_claim(edt, slot, RT_SLOT_SIGNAL, "artsSignalEdtNull");
  rt_edt_satisfy(t, slot, NULL_GUID, ARTS_NULL, NULL);
}

void artsSignalEdt(artsGuid_t edt, uint32_t slot, artsGuid_t db) {
  static const char api[] = "artsSignalEdt";
  rt_check_running(api);
  if (db == NULL_GUID) {
    artsSignalEdtNull(edt, slot);
    return;
  }
  if (forwarded(edt, slot, artsGuidGetType(db), db, api))
    return;
  rt_db *d = rt_db_get(db, api);
  rt_edt *t = rt_edt_claim(edt, slot, RT_SLOT_SIGNAL, api);
  rt_db_signal(d, t, slot);
}

void artsRecordDep(artsGuid_t db, artsGuid_t edt, uint32_t slot, uint32_t mode) {
  static const char api[] = "artsRecordDep";
  rt_check_running(api);
  if (RT_UNLIKELY(!rt_is_access_mode(mode)))
    rt_fatal(db, "%s: access mode %u is none of " RT_ACCESS_MODE_NAMES, api, mode);
  if (rt.nodes > 1) /* copies travel in order, and writes back, as the ordered mode's do */
    mode = rt_ordered_mode(mode);
  uint32_t owner = artsGuidGetRank(db);
  if (RT_UNLIKELY(!rt_route_is_local(owner))) {
    rt_check_remote(owner, db, api);
    rt_net_record_dep(owner, db, edt, slot, mode);
    return;
  }
  rt_db_record(db, edt, slot, mode);
}

static void check_runs(uint32_t depc, uint32_t runc, const artsDbRun *runv, const char *api) {
  if (RT_UNLIKELY(runc && !runv))
    rt_fatal_plain("%s: %u runs of datablocks but no run array", api, runc);
  for (uint32_t k = 0; k < runc; k++) {
    const artsDbRun *r = &runv[k];
    if (RT_UNLIKELY(!rt_is_access_mode(r->mode)))
      rt_fatal_plain("%s: run %u: access mode %u is none of " RT_ACCESS_MODE_NAMES, api, k,
                     r->mode);
    uint64_t count = r->rows * r->cols;
    if (RT_UNLIKELY((r->cols && r->rows > UINT64_MAX / r->cols) || r->first_slot > depc ||
                    count > depc - r->first_slot))
      rt_fatal_plain("%s: run %u: slots %u.. of %llu x %llu datablocks are out of range (the "
                     "task has %u dependences)", api, k, r->first_slot,
                     (unsigned long long)r->rows, (unsigned long long)r->cols, depc);
    if (RT_UNLIKELY(count && !r->guids))
      rt_fatal_plain("%s: run %u: %llu datablocks but no GUID array", api, k,
                     (unsigned long long)count);
  }
}

/* Walks the GUIDs of runs in slot order: `slot`, `guid` and `mode` describe the current one. */
typedef struct run_cursor {
  const artsDbRun *run, *end;
  uint64_t i, j;
  uint32_t slot, mode;
  artsGuid_t guid;
} run_cursor;

static inline run_cursor runs_begin(const artsDbRun *runv, uint32_t runc) {
  run_cursor c = {.run = runv, .end = runc ? runv + runc : runv};
  return c;
}

static inline int run_next(run_cursor *c) {
  for (; c->run < c->end; c->run++, c->i = c->j = 0) {
    const artsDbRun *r = c->run;
    if (c->j == r->cols) {
      c->j = 0;
      c->i++;
    }
    if (c->i < r->rows && r->cols) {
      c->slot = r->first_slot + (uint32_t)(c->i * r->cols + c->j);
      c->mode = r->mode;
      c->guid = r->guids[c->i * r->stride + c->j++];
      return 1;
    }
  }
  return 0;
}

/* The dependences of the runs, recorded at their owners: this node's at once, another
   node's as one M_RECORD_DEPS per owner ({db, slot | mode << 32} pairs, in slot order). */
static void record_at_owners(artsGuid_t edt, uint32_t runc, const artsDbRun *runv,
                             const char *api) {
  /* at[o]..at[o+1]: owner o's pairs (a counting sort by owner) */
  uint64_t *at = calloc(rt.nodes + 1, sizeof *at), remote = 0;
  if (!at)
    rt_fatal(edt, "%s: out of memory", api);
  for (run_cursor c = runs_begin(runv, runc); run_next(&c);) {
    uint32_t owner = artsGuidGetRank(c.guid);
    if (rt_route_is_local(owner)) {
      rt_db_record(c.guid, edt, c.slot, rt_ordered_mode(c.mode));
      continue;
    }
    rt_check_remote(owner, c.guid, api);
    at[owner + 1]++;
    remote++;
  }
  if (remote) {
    for (uint32_t o = 0; o < rt.nodes; o++)
      at[o + 1] += at[o];
    uint64_t *pairs = malloc(16 * remote);
    if (!pairs)
      rt_fatal(edt, "%s: out of memory for %llu dependences", api, (unsigned long long)remote);
    for (run_cursor c = runs_begin(runv, runc); run_next(&c);) {
      uint32_t owner = artsGuidGetRank(c.guid);
      if (rt_route_is_local(owner))
        continue;
      uint64_t k = at[owner]++;
      pairs[2 * k] = c.guid;
      pairs[2 * k + 1] = (uint64_t)c.slot | (uint64_t)rt_ordered_mode(c.mode) << 32;
    }
    /* at[o] now ends owner o's pairs, so at[o - 1] (0 for o = 0) starts them */
    for (uint32_t o = 0; o < rt.nodes; o++) {
      uint64_t begin = o ? at[o - 1] : 0;
      if (at[o] > begin)
        rt_net_record_deps(o, edt, &pairs[2 * begin], at[o] - begin);
    }
    free(pairs);
  }
  free(at);
}

artsGuid_t artsEdtCreateWithDbs(artsEdt_t fn, uint32_t route, uint32_t paramc, uint64_t *paramv,
                                uint32_t depc, artsGuid_t epoch, uint32_t runc,
                                const artsDbRun *runv) {
  static const char api[] = "artsEdtCreateWithDbs";
  rt_check_running(api);
  check_runs(depc, runc, runv, api);
  artsGuid_t guid;
  if (rt.nodes > 1) {
    /* The task or its datablocks may live on another node: the task is created as by
       artsEdtCreateWithEpoch, and each dependence recorded at its datablock's owner, as by
       artsRecordDep; those of one other owner travel as one message. */
    guid = create(fn, route, paramc, paramv, depc, epoch, api);
    record_at_owners(guid, runc, runv, api);
    return guid;
  }
  rt_edt *t = create_task(fn, route, paramc, paramv, depc, epoch, api, &guid);
  if (depc == 0) {
    rt_sched_push(t);
    return guid;
  }
  /* Nobody else knows the task yet: its slots are claimed without the table, and it enters
     the table only if some slot is left for a signal. */
  for (run_cursor c = runs_begin(runv, runc); run_next(&c);) {
    if (RT_UNLIKELY(t->slot_state[c.slot] != RT_SLOT_FREE))
      rt_fatal(guid, "%s: slot %u is named twice", api, c.slot);
    rt_db *d = rt_db_get(c.guid, api);
    rt_db_prefetch(d, c.mode);
    t->slot_state[c.slot] = (uintptr_t)d;
    t->unclaimed--;
  }
  if (t->unclaimed)
    rt_edt_publish(t);
  /* The last acquire may make the task ready, and it may then run and end at once: the
     slots are read from the runs, and the task's memory only before its slot's acquire. */
  for (run_cursor c = runs_begin(runv, runc); run_next(&c);)
    rt_db_acquire((rt_db *)t->slot_state[c.slot], t, c.slot, c.mode);
  return guid;
}

void rt_edt_run(rt_edt *t, uint64_t *returned_ns) {
  rt_ctx ctx = {.edt = t, .enrolled = t->epoch, .stack_top = NULL};
  rt_ctx *outer = rt_tls_ctx;
  rt_tls_ctx = &ctx;
  t->fn(t->paramc, t->paramv, t->depc, t->depv);
  if (returned_ns)
    *returned_ns = rt_now_ns();
  rt_tls_ctx = outer;
  rt_worker *w = rt_tls_worker;
  int was_releasing = w ? w->releasing : 0;
  if (w)
    w->releasing = 1;
  rt_ctx_release_epochs(&ctx);
  for (uint32_t i = 0; i < t->depc; i++) {
    uintptr_t state = t->slot_state[i];
    if (state & RT_SLOT_REMOTE_TAG) {
      /* A copy of another node's datablock: writers send it back before the task counts
         as finished (the owner holds the next generation until then). */
      rt_remote_dep *dep = (rt_remote_dep *)(state & ~RT_SLOT_REMOTE_TAG);
      rt_copy *c = dep->copy;
      if (dep->mode == ARTS_DB_CONCURRENT) {
        rt_net_write_back_changes(dep->owner, dep->db, c->data, dep->was, c->bytes);
        copy_unref(c);
      } else if (dep->mode == ARTS_DB_WRITE) {
        /* What it wrote is the owner's next version: cached before the owner can hear of
           it, so a later grant of that version finds it here. */
        cache_put(dep->db, dep->version, c);
        rt_net_write_back(dep->owner, dep->db, c->data, c->bytes);
      } else {
        copy_unref(c);
      }
      free(dep->was);
      free(dep);
    } else if (state > RT_SLOT_SIGNAL) {
      rt_db_release((rt_db *)state);
    }
  }
  if (rt.net)
    rt_net_count_task_run();
  rt_epoch *e = t->epoch;
  uint32_t arrived = t->arrived;
  rt_edt_free(t);
  if (arrived)
    rt_epoch_finish_arrived(e);
  else
    rt_epoch_finish_task(e, &ctx);
  if (rt.net)
    rt_net_flush(); /* this task's messages leave now, not after the sender thread wakes */
  if (w)
    w->releasing = was_releasing;
}
