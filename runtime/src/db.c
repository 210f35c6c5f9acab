/* Datablocks: the owner copy of the payload and its access generations.

   Requests (artsRecordDep) queue in registration order. The generation being served has a
   mode and a count of holders; a request joins it directly only if nothing is queued ahead
   of it and the modes allow sharing (READ with READ, CONCURRENT with CONCURRENT). When the
   last holder releases, the next generation is taken from the head of the queue: one WRITE,
   or the whole run of consecutive READs, or of consecutive CONCURRENTs.

   A datablock exists from the first reference to its GUID: before artsDbCreateWithGuid it is
   a placeholder that queues requests, unordered signals and puts, replayed at creation. After
   artsDbDestroy it stays in the table as a tombstone so that late uses are reported. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* DB_FAILED: its creation found no memory; the program got NULL, as from malloc, and may
   only destroy it (free(NULL)). Both states past DB_CREATED refuse every use. */
typedef enum { DB_RESERVED, DB_CREATED, DB_DESTROYED, DB_FAILED } db_state;

typedef struct rt_put {
  struct rt_put *next;
  rt_epoch *epoch;
  uint32_t offset;
  uint32_t bytes;
  unsigned char data[];
} rt_put;

struct rt_db {
  rt_obj hdr;
  rt_lock lock;
  db_state state;
  void *payload;
  uint64_t bytes;
  uint64_t mapped; /* bytes of the payload's own mapping (payload_alloc); 0: calloc'ed */
  void *raw;       /* what calloc returned, for a payload that is not mapped */
  int small_pages; /* its mapping was told to use 4 KiB pages (shared_writes_ahead) */
  uint32_t held_mode; /* mode of the generation being served */
  uint32_t holders;   /* tasks of that generation that have not released */
  rt_request *head, *tail;
  rt_request *signals; /* unordered signals waiting for creation */
  rt_put *puts, **puts_tail;
  int free_on_release; /* destroyed while held */
  /* Set once the payload is complete (created, puts applied), cleared when it is destroyed:
     a stable read takes the payload without the lock when it sees this set. */
  _Atomic int readable;
  /* Versions: every WRITE or CONCURRENT grant and every put makes a new one; known[n] is the
     version node n holds a copy of (0: none it can use), so a READ of an unchanged datablock
     ships nothing. Guarded by `lock`. */
  uint64_t version;
  uint64_t *known;
};

/* Payloads of 2 MiB and more get a mapping of their own, 2 MiB-aligned, for which the
   kernel is asked for transparent huge pages: the first touch of such a payload then faults
   once per 2 MiB instead of once per 4 KiB page (a fault costs about as much as writing the
   page), and a task sweeping it misses the TLB far less. Where the kernel gives no huge
   pages, this is an ordinary anonymous mapping. hugePages=0 turns it off. The memory is zero
   either way, as calloc's.
   Each such payload starts STAGGER bytes further into its first 2 MiB page than the one
   before, in a cycle of STAGGER_STEPS: arrays a loop walks together (a stencil's input and
   output) would otherwise have equal addresses modulo 2 MiB, physical ones too, and meet in
   the same cache sets and memory banks at every element (jacobi2d on one thread of a 16-core
   Xeon: 0.31 s aligned, 0.13 s staggered or with 4 KiB pages). The cycle is prime, so that
   block k of one table and block k of the next one made after it differ, and short, so that
   the skipped start wastes at most about 0.5 MiB of a huge page. */
#define HUGE_PAGE ((uint64_t)2 << 20)
#define STAGGER ((uint64_t)4096 + 64)
#define STAGGER_STEPS 127

/* With populate=1 (the default on several nodes) a mapped payload is faulted in when it is
   made, not by the first task that writes it. A node's shares of a distributed table are
   made when the table is distributed, before the kernel; a fault taken inside it costs what
   the machine makes it cost: on a virtual machine that hands freed memory back to its host
   (free page reporting), a fresh 2 MiB page can take the host's fault too. batchnorm large
   on 2 nodes of this kind of machine: kernel 0.05-1.15 s faulting lazily, 0.043-0.058 s
   populated. MADV_POPULATE_WRITE (Linux 5.14) where the kernel has it, else a write a page. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
static void populate(char *p, size_t len) {
  if (madvise(p, len, MADV_POPULATE_WRITE) == 0)
    return;
  for (size_t at = 0; at < len; at += 4096)
    ((volatile char *)p)[at] = 0;
}

/* Every payload starts on a cache line (PAYLOAD_ALIGN), as a program's
   omp_aligned_alloc(64, ...) or an allocator's 64-byte alignment trait asks for, and as the
   vectoriser's aligned accesses like; calloc gives 16 bytes, so a calloc'ed payload starts at
   the first line of its allocation (*held, which is what is freed), zeroed lazily as calloc's memory is.
   A mapped payload's start is a multiple of STAGGER into its page, a multiple of 64 too. */
#define PAYLOAD_ALIGN 64

static void *payload_alloc(uint64_t bytes, uint64_t *mapped, void **held) {
  static _Atomic uint64_t mapped_count;
  *mapped = 0;
  *held = NULL;
  if (!rt.cfg.huge_pages || bytes < HUGE_PAGE || bytes > UINT64_MAX / 4) {
    if (bytes > UINT64_MAX - PAYLOAD_ALIGN)
      return NULL;
    *held = calloc(1, bytes + PAYLOAD_ALIGN);
    if (!*held)
      return NULL;
    uintptr_t at = ((uintptr_t)*held + PAYLOAD_ALIGN - 1) & ~(uintptr_t)(PAYLOAD_ALIGN - 1);
    return (void *)at;
  }
  uint64_t skip =
      atomic_fetch_add_explicit(&mapped_count, 1, memory_order_relaxed) % STAGGER_STEPS * STAGGER;
  size_t len = (size_t)((skip + bytes + 4095) & ~(uint64_t)4095), span = len + HUGE_PAGE;
  char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    return NULL;
  char *p = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
  if (p > raw)
    munmap(raw, (size_t)(p - raw));
  if (raw + span > p + len)
    munmap(p + len, (size_t)(raw + span - (p + len)));
  madvise(p, len, MADV_HUGEPAGE); /* advice: no huge pages is no error */
  if (rt.cfg.populate)
    populate(p, len);
  *mapped = len;
  return p + skip;
}

/* The start of a mapped payload's mapping: its skip is less than a huge page. */
static inline void *mapping_of(const rt_db *d) {
  return (void *)((uintptr_t)d->payload & ~(uintptr_t)(HUGE_PAGE - 1));
}

/* A payload that tasks write together (CONCURRENT) is first touched by all of them at once:
   with huge pages one of them faults (and zeroes) each 2 MiB while the others wait for it,
   with 4 KiB pages they fault side by side (pooling at 16 threads: 1.6 against 1.0 ms). Such
   a payload keeps 4 KiB pages for what is not touched yet. Called with d->lock held. */
static void shared_writes_ahead(rt_db *d) {
  if (d->mapped && !d->small_pages && rt.threads > 1) {
    d->small_pages = 1;
    madvise(mapping_of(d), (size_t)d->mapped, MADV_NOHUGEPAGE);
  }
}

static void payload_free(rt_db *d) {
  if (d->mapped)
    munmap(mapping_of(d), (size_t)d->mapped);
  else
    free(d->raw);
  d->payload = NULL;
  d->raw = NULL;
  d->mapped = 0;
}

static rt_db *db_new(artsGuid_t guid) {
  rt_db *d = calloc(1, sizeof *d);
  if (!d)
    rt_fatal(guid, "out of memory for a datablock");
  d->hdr.guid = guid;
  rt_lock_init(&d->lock);
  d->state = DB_RESERVED;
  d->puts_tail = &d->puts;
  d->version = 1;
  return d;
}

static void check_db_guid(artsGuid_t guid, const char *api) {
  if (RT_UNLIKELY(!rt_is_db_type(artsGuidGetType(guid))))
    rt_fatal(guid, "%s: not a datablock", api);
  if (RT_UNLIKELY(!rt_guid_was_minted(guid)))
    rt_fatal(guid, "%s: unknown datablock (never reserved)", api);
}

rt_db *rt_db_get(artsGuid_t guid, const char *api) {
  /* A datablock's record stays where it is until the run ends (a destroyed one as a
     tombstone), so a worker may remember where it found one: a creator naming the same few
     datablocks for every task of a loop takes no shard lock for them. */
  rt_worker *w = rt_tls_worker;
  rt_db_seen *seen = w ? &w->db_seen[(guid * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - RT_DB_SEEN_BITS)]
                       : NULL;
  if (seen && seen->guid == guid)
    return seen->db;
  check_db_guid(guid, api);
  rt_shard *s = rt_table_shard(guid);
  rt_lock_acquire(&s->lock);
  rt_db *d = (rt_db *)rt_shard_find(s, guid);
  if (!d) {
    d = db_new(guid);
    rt_shard_insert(s, &d->hdr);
  }
  rt_lock_release(&s->lock);
  if (seen) {
    seen->guid = guid;
    seen->db = d;
  }
  return d;
}

static RT_NORETURN void destroyed(rt_db *d, const char *api) {
  artsGuid_t guid = d->hdr.guid;
  int failed = d->state == DB_FAILED;
  rt_lock_release(&d->lock);
  if (failed)
    rt_fatal(guid, "%s: the datablock was never allocated (out of memory; its creation "
                   "returned NULL)", api);
  rt_fatal(guid, "%s: the datablock was destroyed", api);
}

static inline int joins_generation(const rt_db *d, uint32_t mode) {
  return d->holders == 0 || (mode == d->held_mode && mode != ARTS_DB_WRITE);
}

/* Detach the next generation from the queue and make it the one being served. */
static rt_request *next_generation(rt_db *d) {
  rt_request *first = d->head;
  if (!first)
    return NULL;
  rt_request *last = first;
  uint32_t n = 1;
  if (first->mode != ARTS_DB_WRITE)
    while (last->next && last->next->mode == first->mode) {
      last = last->next;
      n++;
    }
  d->head = last->next;
  if (!d->head)
    d->tail = NULL;
  last->next = NULL;
  d->held_mode = first->mode;
  d->holders = n;
  return first;
}

static void check_range(artsGuid_t guid, uint64_t size, uint32_t offset, uint32_t bytes,
                        const char *api) {
  if (RT_UNLIKELY((uint64_t)offset + bytes > size))
    rt_fatal(guid, "%s: bytes %u..%llu are outside the datablock's %llu bytes", api, offset,
             (unsigned long long)offset + bytes, (unsigned long long)size);
}

/* The version a grant to `node` in `mode` hands out; *prev and *cached say what the node
   holds already. Called with d->lock held. */
static void need_known(rt_db *d) {
  if (!d->known) {
    d->known = calloc(rt.nodes, sizeof *d->known);
    if (!d->known)
      rt_fatal(d->hdr.guid, "out of memory for a datablock's versions");
  }
}

static uint64_t version_for(rt_db *d, uint32_t node, uint32_t mode, uint64_t *prev, int *cached) {
  need_known(d);
  *prev = d->version;
  *cached = mode != ARTS_DB_CONCURRENT && d->known[node] == d->version;
  if (mode == ARTS_DB_READ) {
    d->known[node] = d->version;
    return d->version;
  }
  d->version++;
  /* a WRITE's node will hold what it makes; a CONCURRENT one only part of it */
  d->known[node] = mode == ARTS_DB_WRITE ? d->version : 0;
  return d->version;
}

/* Hand the payload to each request of a generation that has started. */
static void grant(rt_db *d, rt_request *r, void *payload) {
  artsGuid_t guid = d->hdr.guid;
  while (r) {
    rt_request *next = r->next;
    switch (r->kind) {
    case REQ_SLOT:
      if (r->mode != ARTS_DB_READ && rt.net) { /* the content changes: copies elsewhere are stale */
        rt_lock_acquire(&d->lock);
        d->version++;
        rt_lock_release(&d->lock);
      }
      /* It lives in its task, which may run and end as soon as this slot is filled. */
      rt_edt_satisfy(r->edt, r->slot, guid, r->mode, payload);
      r = next;
      continue;
    case REQ_REMOTE_SLOT: {
      uint64_t prev;
      int cached;
      rt_lock_acquire(&d->lock);
      uint64_t version = version_for(d, r->node, r->mode, &prev, &cached);
      rt_lock_release(&d->lock);
      rt_net_grant(r->node, r->edt_guid, r->slot, guid, r->mode, version, prev, cached, payload,
                   d->bytes);
      if (r->mode == ARTS_DB_READ) /* the reader got a snapshot of this generation */
        rt_db_release(d);
      break;
    }
    case REQ_GET:
      check_range(guid, d->bytes, r->offset, r->bytes, "artsGetFromDbEpoch");
      if (r->dst != (char *)payload + r->offset)
        memcpy(r->dst, (char *)payload + r->offset, r->bytes);
      rt_db_release(d);
      rt_epoch_finish_one(r->epoch);
      break;
    case REQ_REMOTE_GET:
      check_range(guid, d->bytes, r->offset, r->bytes, "artsGetFromDbEpoch");
      rt_net_get_reply(r->node, r->handle, (char *)payload + r->offset, r->bytes);
      rt_db_release(d);
      break;
    }
    free(r);
    r = next;
  }
}

/* A request of another node or of a get; a local task's slot has its own (slot_request). */
static rt_request *new_request(rt_db *d, req_kind kind, uint32_t mode) {
  rt_request *r = calloc(1, sizeof *r);
  if (!r)
    rt_fatal(d->hdr.guid, "out of memory for a datablock request");
  r->kind = kind;
  r->mode = mode;
  return r;
}

/* The request of slot `slot` of the local task `t`: it is part of the task. */
static rt_request *slot_request(rt_edt *t, uint32_t slot, uint32_t mode) {
  rt_request *r = &t->requests[slot];
  r->kind = REQ_SLOT;
  r->mode = mode;
  r->edt = t;
  r->slot = slot;
  return r;
}

/* Join the generation being served, or queue behind the others. */
static void enqueue(rt_db *d, rt_request *r, const char *api) {
  rt_lock_acquire(&d->lock);
  if (RT_UNLIKELY(d->state >= DB_DESTROYED))
    destroyed(d, api);
  if (d->state == DB_CREATED && !d->head && joins_generation(d, r->mode)) {
    d->holders++;
    d->held_mode = r->mode;
    void *payload = d->payload;
    rt_lock_release(&d->lock);
    r->next = NULL;
    grant(d, r, payload);
    return;
  }
  r->next = NULL;
  if (d->tail)
    d->tail->next = r;
  else
    d->head = r;
  d->tail = r;
  rt_lock_release(&d->lock);
}

uint64_t rt_db_held_bytes(const rt_edt *t) {
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < t->depc; i++) {
    uintptr_t state = t->slot_state[i];
    if (state > RT_SLOT_SIGNAL && !(state & RT_SLOT_REMOTE_TAG))
      bytes += ((const rt_db *)state)->bytes;
  }
  return bytes;
}

void rt_db_prefetch(rt_db *d, uint32_t mode) {
  if (rt_ordered_mode(mode) == mode)
    __builtin_prefetch(&d->lock, 1);
}

void rt_db_acquire(rt_db *d, rt_edt *t, uint32_t slot, uint32_t mode) {
  uint32_t ordered = rt_ordered_mode(mode);
  if (ordered != mode) {
    /* Nothing else acquires it while this task may (no writer for a read, only other
       CONCURRENTs for a CONCURRENT, nobody for a WRITE): no generation to join, and the
       task's return has nothing to release. Only the flag's line is read, so every worker
       keeps its copy of it. A datablock not created yet is waited for as by the ordered
       mode. */
    mode = ordered;
    if (atomic_load_explicit(&d->readable, memory_order_acquire)) {
      if (mode == ARTS_DB_CONCURRENT && d->mapped) { /* `mapped` was set before `readable` */
        rt_lock_acquire(&d->lock);
        shared_writes_ahead(d);
        rt_lock_release(&d->lock);
      }
      t->slot_state[slot] = RT_SLOT_SIGNAL;
      rt_edt_satisfy(t, slot, d->hdr.guid, mode, d->payload);
      return;
    }
  }
  /* The common case, a datablock free or held in a mode this one shares: satisfy the slot
     at once, with no request to allocate. */
  rt_lock_acquire(&d->lock);
  if (mode == ARTS_DB_CONCURRENT)
    shared_writes_ahead(d);
  if (d->state == DB_CREATED && !d->head && joins_generation(d, mode)) {
    d->holders++;
    d->held_mode = mode;
    if (mode != ARTS_DB_READ && rt.net)
      d->version++; /* the content changes: copies elsewhere are stale */
    void *payload = d->payload;
    rt_lock_release(&d->lock);
    rt_edt_satisfy(t, slot, d->hdr.guid, mode, payload);
    return;
  }
  rt_lock_release(&d->lock);
  enqueue(d, slot_request(t, slot, mode), "artsRecordDep");
}

void rt_db_record(artsGuid_t db, artsGuid_t edt, uint32_t slot, uint32_t mode) {
  static const char api[] = "artsRecordDep";
  rt_db *d = rt_db_get(db, api);
  uint32_t node = artsGuidGetRank(edt);
  if (rt_route_is_local(node)) {
    rt_edt *t = rt_edt_claim(edt, slot, (uintptr_t)d, api);
    rt_db_acquire(d, t, slot, mode);
    return;
  }
  rt_check_remote(node, edt, api);
  /* A writer on another node works on a copy: a WRITE sends it back whole, a CONCURRENT
     writer only what it changed, so it may share its generation as on one node. */
  rt_request *r = new_request(d, REQ_REMOTE_SLOT, mode);
  r->node = node;
  r->edt_guid = edt;
  r->slot = slot;
  enqueue(d, r, api);
}

void rt_db_write_back(artsGuid_t db, const void *data, uint64_t bytes, int ranges) {
  rt_db *d = rt_db_get(db, "write-back");
  const unsigned char *p = data, *end = p + bytes;
  rt_lock_acquire(&d->lock);
  uint64_t size = d->bytes;
  if (!ranges) {
    if (d->payload && bytes == size)
      memcpy(d->payload, data, bytes);
    p = end;
  }
  while (p < end) {
    uint64_t head[2];
    memcpy(head, p, 16);
    if (head[0] > size || head[1] > size - head[0] || (uint64_t)(end - p) < 16 + head[1])
      break;
    memcpy((char *)d->payload + head[0], p + 16, head[1]);
    p += 16 + ((head[1] + 7) & ~(uint64_t)7);
  }
  rt_lock_release(&d->lock);
  if ((!ranges && bytes != size) || p != end)
    rt_fatal(db, "a write-back of %llu bytes does not fit the datablock's %llu",
             (unsigned long long)bytes, (unsigned long long)size);
  rt_db_release(d);
}

void rt_db_remote_get(artsGuid_t db, uint32_t node, uint32_t offset, uint32_t bytes,
                      uint64_t handle) {
  rt_db *d = rt_db_get(db, "artsGetFromDbEpoch");
  rt_request *r = new_request(d, REQ_REMOTE_GET, ARTS_DB_READ);
  r->node = node;
  r->offset = offset;
  r->bytes = bytes;
  r->handle = handle;
  enqueue(d, r, "artsGetFromDbEpoch");
}

/* What a get sent to another node remembers until the reply comes. */
typedef struct {
  void *dst;
  rt_epoch *epoch;
} pending_get;

void rt_db_get_reply(uint64_t handle, const void *data, uint32_t bytes) {
  pending_get *g = (pending_get *)(uintptr_t)handle;
  memcpy(g->dst, data, bytes);
  rt_epoch *e = g->epoch;
  free(g);
  rt_epoch_finish_one(e);
}

void artsGetFromDbEpoch(void *dst, artsGuid_t epoch, artsGuid_t db, uint32_t offset,
                        uint32_t bytes) {
  static const char api[] = "artsGetFromDbEpoch";
  rt_check_running(api);
  if (bytes && !dst)
    rt_fatal(db, "%s: null destination for %u bytes", api, bytes);
  check_db_guid(db, api);
  rt_epoch *e = rt_epoch_enrol(epoch, api);
  uint32_t owner = artsGuidGetRank(db);
  if (!rt_route_is_local(owner)) {
    rt_check_remote(owner, db, api);
    pending_get *g = malloc(sizeof *g);
    if (!g)
      rt_fatal(db, "%s: out of memory", api);
    g->dst = dst;
    g->epoch = e;
    rt_net_get(owner, db, offset, bytes, (uint64_t)(uintptr_t)g);
    return;
  }
  rt_db *d = rt_db_get(db, api);
  rt_request *r = new_request(d, REQ_GET, ARTS_DB_READ);
  r->dst = dst;
  r->epoch = e;
  r->offset = offset;
  r->bytes = bytes;
  enqueue(d, r, api);
}

void rt_db_signal(rt_db *d, rt_edt *t, uint32_t slot) {
  rt_lock_acquire(&d->lock);
  if (RT_UNLIKELY(d->state >= DB_DESTROYED))
    destroyed(d, "artsSignalEdt");
  if (d->state == DB_CREATED) {
    void *payload = d->payload;
    d->version++; /* an unordered holder may write it */
    rt_lock_release(&d->lock);
    rt_edt_satisfy(t, slot, d->hdr.guid, artsGuidGetType(d->hdr.guid), payload);
    return;
  }
  rt_request *r = slot_request(t, slot, ARTS_NULL);
  r->next = d->signals;
  d->signals = r;
  rt_lock_release(&d->lock);
}

void rt_db_release(rt_db *d) {
  rt_lock_acquire(&d->lock);
  rt_request *granted = NULL;
  void *payload = d->payload;
  if (--d->holders == 0) {
    if (d->free_on_release) {
      payload_free(d);
      d->free_on_release = 0;
    } else {
      granted = next_generation(d);
    }
  }
  rt_lock_release(&d->lock);
  grant(d, granted, payload);
}

static void apply_put(rt_db *d, const void *src, uint32_t offset, uint32_t bytes) {
  if (RT_UNLIKELY((uint64_t)offset + bytes > d->bytes)) {
    artsGuid_t guid = d->hdr.guid;
    uint64_t size = d->bytes;
    rt_lock_release(&d->lock);
    rt_fatal(guid, "artsPutInDbEpoch: bytes %u..%llu are outside the datablock's %llu bytes", offset,
             (unsigned long long)offset + bytes, (unsigned long long)size);
  }
  if ((char *)d->payload + offset != src)
    memcpy((char *)d->payload + offset, src, bytes);
  d->version++; /* a put of the payload onto itself too: the host wrote it in place */
}

void artsDbShare(artsGuid_t db) {
  static const char api[] = "artsDbShare";
  rt_check_running(api);
  check_db_guid(db, api);
  if (!rt.net || !rt_route_is_local(artsGuidGetRank(db)))
    return;
  rt_db *d = rt_db_get(db, api);
  rt_lock_acquire(&d->lock);
  if (d->state >= DB_DESTROYED)
    destroyed(d, api);
  /* Only an idle datablock: nothing queued or held can change it before the copies leave. */
  if (d->state != DB_CREATED || d->holders || d->head || d->puts) {
    rt_lock_release(&d->lock);
    return;
  }
  need_known(d);
  /* Sent under the lock: no task can be granted the datablock while its bytes are copied. */
  for (uint32_t n = 0; n < rt.nodes; n++)
    if (n != rt.node && d->known[n] != d->version) {
      d->known[n] = d->version;
      rt_net_copy(n, db, d->version, d->payload, d->bytes);
    }
  rt_lock_release(&d->lock);
}

void *artsDbCreateWithGuid(artsGuid_t guid, uint64_t bytes) {
  static const char api[] = "artsDbCreateWithGuid";
  rt_check_running(api);
  check_db_guid(guid, api);
  if (!rt_route_is_local(artsGuidGetRank(guid)))
    return NULL;
  rt_db *d = rt_db_get(guid, api);
  rt_lock_acquire(&d->lock);
  if (RT_UNLIKELY(d->state != DB_RESERVED)) {
    int was_destroyed = d->state >= DB_DESTROYED;
    rt_lock_release(&d->lock);
    rt_fatal(guid, "%s: the datablock %s", api, was_destroyed ? "was destroyed" : "already exists");
  }
  uint64_t mapped;
  void *raw;
  void *payload = payload_alloc(bytes, &mapped, &raw);
  if (!payload) {
    if (d->puts || d->signals) {
      rt_lock_release(&d->lock);
      rt_fatal(guid, "%s: out of memory for %llu bytes, and tasks or puts wait for it", api,
               (unsigned long long)bytes);
    }
    /* As malloc: the program's own check of the pointer decides what happens next. */
    d->state = DB_FAILED;
    rt_lock_release(&d->lock);
    return NULL;
  }
  d->payload = payload;
  d->mapped = mapped;
  d->raw = raw;
  d->bytes = bytes;
  d->state = DB_CREATED;
  rt_put *puts = d->puts;
  for (rt_put *p = puts; p; p = p->next)
    apply_put(d, p->data, p->offset, p->bytes);
  d->puts = NULL;
  d->puts_tail = &d->puts;
  atomic_store_explicit(&d->readable, 1, memory_order_release);
  rt_request *signals = d->signals;
  d->signals = NULL;
  rt_request *granted = d->holders == 0 ? next_generation(d) : NULL;
  rt_lock_release(&d->lock);

  while (puts) {
    rt_put *next = puts->next;
    rt_epoch_finish_one(puts->epoch);
    free(puts);
    puts = next;
  }
  while (signals) {
    rt_request *next = signals->next;
    rt_edt_satisfy(signals->edt, signals->slot, guid, artsGuidGetType(guid), payload);
    signals = next;
  }
  grant(d, granted, payload);
  return payload;
}

void *artsDbCreateOnOwner(artsGuid_t guid, uint64_t bytes) {
  static const char api[] = "artsDbCreateOnOwner";
  rt_check_running(api);
  check_db_guid(guid, api);
  uint32_t owner = artsGuidGetRank(guid);
  if (rt_route_is_local(owner))
    return artsDbCreateWithGuid(guid, bytes);
  rt_check_remote(owner, guid, api);
  rt_net_create_db(owner, guid, bytes);
  return NULL;
}

artsGuid_t artsDbCreateRemote(uint32_t route, uint64_t bytes, uint32_t mode) {
  static const char api[] = "artsDbCreateRemote";
  rt_check_running(api);
  if (!rt_is_db_type(mode))
    rt_fatal_plain("%s: mode %u is not a datablock mode", api, mode);
  route %= rt.nodes;
  artsGuid_t guid = rt_guid_make(mode, route, rt_mint_key());
  if (rt_route_is_local(route)) {
    artsDbCreateWithGuid(guid, bytes);
  } else {
    rt_check_remote(route, guid, api);
    rt_net_create_db(route, guid, bytes);
  }
  return guid;
}

void artsDbDestroy(artsGuid_t guid) {
  static const char api[] = "artsDbDestroy";
  rt_check_running(api);
  check_db_guid(guid, api);
  uint32_t owner = artsGuidGetRank(guid);
  if (!rt_route_is_local(owner)) {
    rt_check_remote(owner, guid, api);
    rt_net_destroy_db(owner, guid);
    return;
  }
  rt_db *d = rt_db_get(guid, api);
  rt_lock_acquire(&d->lock);
  if (d->state == DB_DESTROYED)
    destroyed(d, api);
  if (d->state == DB_FAILED) { /* free(NULL) */
    d->state = DB_DESTROYED;
    rt_lock_release(&d->lock);
    return;
  }
  if (d->head || d->signals || d->puts) {
    rt_lock_release(&d->lock);
    rt_fatal(guid, "%s: tasks or puts are still waiting for the datablock", api);
  }
  d->state = DB_DESTROYED;
  atomic_store_explicit(&d->readable, 0, memory_order_relaxed);
  if (d->holders > 0) {
    d->free_on_release = 1; /* the running generation keeps its pointer until it releases */
  } else {
    payload_free(d);
  }
  rt_lock_release(&d->lock);
}

void rt_db_put(artsGuid_t db, rt_epoch *e, uint32_t offset, const void *src, uint32_t bytes) {
  static const char api[] = "artsPutInDbEpoch";
  rt_db *d = rt_db_get(db, api);
  rt_lock_acquire(&d->lock);
  if (d->state >= DB_DESTROYED)
    destroyed(d, api);
  if (d->state == DB_CREATED) {
    apply_put(d, src, offset, bytes);
    rt_lock_release(&d->lock);
    rt_epoch_finish_one(e);
    return;
  }
  rt_put *p = malloc(sizeof *p + bytes);
  if (!p) {
    rt_lock_release(&d->lock);
    rt_fatal(db, "%s: out of memory for %u bytes", api, bytes);
  }
  p->next = NULL;
  p->epoch = e;
  p->offset = offset;
  p->bytes = bytes;
  memcpy(p->data, src, bytes);
  *d->puts_tail = p;
  d->puts_tail = &p->next;
  rt_lock_release(&d->lock);
}

void artsPutInDbEpoch(void *src, artsGuid_t epoch, artsGuid_t db, uint32_t offset, uint32_t bytes) {
  static const char api[] = "artsPutInDbEpoch";
  rt_check_running(api);
  if (bytes && !src)
    rt_fatal(db, "%s: null source for %u bytes", api, bytes);
  check_db_guid(db, api);
  rt_epoch *e = rt_epoch_enrol(epoch, api);
  uint32_t owner = artsGuidGetRank(db);
  if (rt_route_is_local(owner)) {
    rt_db_put(db, e, offset, src, bytes);
    return;
  }
  rt_check_remote(owner, db, api);
  /* From outside the epoch's home, through the home: it has counted the put before the
     owner can report it done. */
  rt_net_put(e->proxy ? e->home : owner, e->hdr.guid, db, offset, src, bytes);
}

void rt_db_describe_blocked(rt_db *d, rt_blocked *report) {
  rt_lock_acquire(&d->lock);
  uint32_t requests = 0, puts = 0;
  artsGuid_t task = NULL_GUID;
  rt_request *waiting[2] = {d->head, d->signals};
  for (int i = 0; i < 2; i++)
    for (rt_request *r = waiting[i]; r; r = r->next, requests++)
      if (!task && (r->kind == REQ_SLOT || r->kind == REQ_REMOTE_SLOT))
        task = r->kind == REQ_SLOT ? r->edt->hdr.guid : r->edt_guid;
  for (rt_put *p = d->puts; p; p = p->next)
    puts++;
  if (requests + puts) {
    if (report->notes++ < RT_MAX_NOTES) {
      if (d->state == DB_RESERVED)
        fprintf(stderr,
                "carts runtime: note: datablock 0x%016llx was never created; %u dependence(s) "
                "and %u put(s) wait for it\n",
                (unsigned long long)d->hdr.guid, requests, puts);
      else
        fprintf(stderr,
                "carts runtime: note: datablock 0x%016llx: %u dependence(s) wait behind a "
                "generation of %u task(s) that has not been released (a task holding it waits "
                "on an epoch that needs it?)\n",
                (unsigned long long)d->hdr.guid, requests, d->holders);
    }
    report->requests += requests + puts;
    if (!report->first)
      report->first = task ? task : d->hdr.guid;
  }
  rt_lock_release(&d->lock);
}

void rt_db_free(rt_db *d, void (*edt_seen)(rt_edt *t, void *arg), void *arg) {
  rt_request *waiting[2] = {d->head, d->signals};
  for (int i = 0; i < 2; i++)
    for (rt_request *r = waiting[i], *next; r; r = next) {
      next = r->next;
      if (r->kind == REQ_SLOT)
        edt_seen(r->edt, arg); /* its request goes with it */
      else
        free(r);
    }
  for (rt_put *p = d->puts, *next; p; p = next) {
    next = p->next;
    free(p);
  }
  payload_free(d);
  free(d->known);
  free(d);
}
