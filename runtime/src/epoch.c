/* Epochs: one counter of unfinished work per epoch. The creator's hold keeps it above zero
   until the creator waits (or its task ends); every task or put counted in it adds one, and
   an epoch started inside it adds one until it ends itself. Reaching zero ends the epoch,
   exactly once: the counter is never raised again from zero (lookups by GUID only increment
   a non-zero counter).

   The creator of an epoch counts the tasks it starts in it locally (`local`), against a
   credit added to the counter up front, and settles when it releases its hold: the counter
   cannot reach zero while the hold is there, so nothing can end early, and the creator's
   task launches do not contend with the workers' finishes on the counter's cache line. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define CREATOR_CREDIT (INT64_C(1) << 40)

rt_epoch *rt_epoch_new(rt_epoch *parent, artsGuid_t finish_edt, uint32_t finish_slot) {
  rt_epoch *e = aligned_alloc(RT_CACHE_LINE, sizeof *e);
  if (!e)
    rt_fatal_plain("out of memory for an epoch");
  memset(e, 0, sizeof *e);
  e->hdr.guid = rt_guid_make(ARTS_EPOCH, rt.node, rt_mint_key());
  atomic_init(&e->pending, 1); /* the creator's hold */
  atomic_init(&e->counted, 0);
  atomic_init(&e->refs, 1); /* the table's */
  atomic_init(&e->waiters, 0);
  atomic_init(&e->done, 0);
  e->parent = parent;
  e->home = rt.node;
  e->finish_edt = finish_edt;
  e->finish_slot = finish_slot;
  if (rt.net)
    rt_net_count_epoch();
  if (parent) {
    if (parent->proxy)
      rt_net_epoch_add(parent->home, parent->hdr.guid);
    else
      atomic_fetch_add_explicit(&parent->pending, 1, memory_order_relaxed);
  }
  rt_table_insert(&e->hdr);
  return e;
}

static void terminate(rt_epoch *e);

static rt_epoch *find_local(artsGuid_t guid, const char *api) {
  rt_shard *s = rt_table_shard(guid);
  rt_lock_acquire(&s->lock);
  rt_epoch *e = (rt_epoch *)rt_shard_find(s, guid);
  rt_lock_release(&s->lock);
  if (RT_UNLIKELY(!e || e->proxy || atomic_load_explicit(&e->pending, memory_order_relaxed) <= 0))
    rt_fatal(guid, "%s: unknown or already finished epoch", api);
  return e;
}

rt_epoch *rt_epoch_at(artsGuid_t guid, const char *api) {
  if (RT_UNLIKELY(artsGuidGetType(guid) != ARTS_EPOCH))
    rt_fatal(guid, "%s: not an epoch", api);
  uint32_t home = artsGuidGetRank(guid);
  if (rt_route_is_local(home))
    return find_local(guid, api);
  rt_check_remote(home, guid, api);
  rt_shard *s = rt_table_shard(guid);
  rt_lock_acquire(&s->lock);
  rt_epoch *e = (rt_epoch *)rt_shard_find(s, guid);
  if (!e) {
    e = aligned_alloc(RT_CACHE_LINE, sizeof *e);
    if (e)
      memset(e, 0, sizeof *e);
    if (!e) {
      rt_lock_release(&s->lock);
      rt_fatal(guid, "out of memory for an epoch proxy");
    }
    e->hdr.guid = guid;
    e->proxy = 1;
    e->home = home;
    atomic_init(&e->pending, 1); /* never reaches zero here */
    atomic_init(&e->refs, 1);
    rt_shard_insert(s, &e->hdr);
  }
  rt_lock_release(&s->lock);
  return e;
}

void rt_epoch_remote_add(artsGuid_t guid) {
  rt_epoch *e = find_local(guid, "a task counted by another node");
  atomic_fetch_add_explicit(&e->pending, 1, memory_order_relaxed);
  if (e->finish_edt)
    atomic_fetch_add_explicit(&e->counted, 1, memory_order_relaxed);
}

void rt_epoch_remote_done(artsGuid_t guid, uint64_t n) {
  rt_epoch *e = find_local(guid, "a task finished on another node");
  if (atomic_fetch_sub_explicit(&e->pending, (int64_t)n, memory_order_acq_rel) == (int64_t)n)
    terminate(e);
}

/* Tasks another node created here, in an epoch homed elsewhere, report their end to the home
   together: one message when the last of them here has finished (a node whose tasks wait on
   each other's data, as a stencil's sweeps fused in one epoch, sends one per epoch instead of
   one per task). The report is the sum of the finished ones since the last; a task arriving
   meanwhile only delays it. The home cannot end the epoch before every task it counted has
   been reported, and each report travels after the messages its tasks sent (the write-backs
   and creations), as a report per task did. */
void rt_epoch_arrived(rt_epoch *e) {
  atomic_fetch_add_explicit(&e->pending, 1, memory_order_relaxed);
}

void rt_epoch_finish_arrived(rt_epoch *e) {
  atomic_fetch_add_explicit(&e->unsent, 1, memory_order_relaxed);
  if (atomic_fetch_sub_explicit(&e->pending, 1, memory_order_acq_rel) != 2)
    return;
  int64_t n = atomic_exchange_explicit(&e->unsent, 0, memory_order_acq_rel);
  if (n > 0)
    rt_net_epoch_done(e->home, e->hdr.guid, (uint64_t)n);
}

void rt_epoch_unref(rt_epoch *e) {
  if (atomic_fetch_sub_explicit(&e->refs, 1, memory_order_acq_rel) == 1)
    free(e);
}

static void count(rt_epoch *e) {
  if (RT_UNLIKELY(e->proxy)) {
    rt_net_epoch_add(e->home, e->hdr.guid);
    return;
  }
  atomic_fetch_add_explicit(&e->pending, 1, memory_order_relaxed);
  if (e->finish_edt)
    atomic_fetch_add_explicit(&e->counted, 1, memory_order_relaxed);
}

/* Counts a task adds to the epoch it is counted in at a time, ahead of its creations there. */
#define TASK_BATCH 64

/* Count in the epoch the calling task is counted in. A task (not an init callback) takes its
   counts a batch at a time: the epoch cannot end before the task does, so counts added ahead
   hold nothing open longer, and a task creating many tasks (a launcher) touches the counter's
   line, which the workers finishing tasks write, once a batch instead of once a task. */
static void count_enrolled(rt_ctx *ctx) {
  rt_epoch *e = ctx->enrolled;
  if (RT_UNLIKELY(e->proxy || !ctx->edt)) {
    count(e);
    return;
  }
  if (ctx->spare == 0) {
    atomic_fetch_add_explicit(&e->pending, TASK_BATCH, memory_order_relaxed);
    ctx->spare = TASK_BATCH;
  }
  ctx->spare--;
  ctx->added++;
}

/* Count in an epoch the calling task holds (it is on the task's stack of epochs). */
static inline void count_held(rt_epoch *e) {
  if (RT_LIKELY(e->credit > 0)) {
    rt_epoch_before_launch(e);
    e->local++;
  } else {
    count(e);
  }
}

rt_epoch *rt_epoch_enrol(artsGuid_t guid, const char *api) {
  rt_ctx *ctx = rt_tls_ctx;
  /* Fast path: the calling task is counted in the epoch or holds it, so it cannot end. */
  if (RT_LIKELY(ctx != NULL)) {
    if (guid == NULL_GUID) {
      if (ctx->stack_top) {
        count_held(ctx->stack_top);
        return ctx->stack_top;
      }
      count_enrolled(ctx);
      return ctx->enrolled;
    }
    for (rt_epoch *e = ctx->stack_top; e; e = e->stack_below)
      if (e->hdr.guid == guid) {
        count_held(e);
        return e;
      }
    if (ctx->enrolled && ctx->enrolled->hdr.guid == guid) {
      count_enrolled(ctx);
      return ctx->enrolled;
    }
  } else if (guid == NULL_GUID) {
    rt_fatal_plain("%s: no current epoch: the calling thread is not running a task", api);
  }
  if (artsGuidGetType(guid) != ARTS_EPOCH)
    rt_fatal(guid, "%s: not an epoch", api);
  if (!rt_route_is_local(artsGuidGetRank(guid))) {
    rt_epoch *proxy = rt_epoch_at(guid, api);
    count(proxy);
    return proxy;
  }
  rt_shard *s = rt_table_shard(guid);
  rt_lock_acquire(&s->lock);
  rt_epoch *e = (rt_epoch *)rt_shard_find(s, guid);
  int64_t n = e ? atomic_load_explicit(&e->pending, memory_order_relaxed) : 0;
  while (n > 0 && !atomic_compare_exchange_weak_explicit(&e->pending, &n, n + 1,
                                                         memory_order_relaxed, memory_order_relaxed))
    ;
  rt_lock_release(&s->lock);
  if (n <= 0)
    rt_fatal(guid, "%s: unknown or already finished epoch", api);
  if (e->finish_edt)
    atomic_fetch_add_explicit(&e->counted, 1, memory_order_relaxed);
  return e;
}

static void terminate(rt_epoch *e) {
  rt_table_remove(&e->hdr);
  if (e->finish_edt)
    rt_edt_signal_value(e->finish_edt, e->finish_slot,
                        atomic_load_explicit(&e->counted, memory_order_relaxed),
                        "the finish task of an epoch");
  rt_epoch *parent = e->parent;
  if (e->is_top)
    rt_request_shutdown();
  atomic_store_explicit(&e->done, 1, memory_order_seq_cst);
  if (atomic_load_explicit(&e->waiters, memory_order_seq_cst) > 0)
    rt_sched_wake_all();
  rt_epoch_unref(e);
  if (parent)
    rt_epoch_finish_one(parent);
}

void rt_epoch_finish_one(rt_epoch *e) {
  if (RT_UNLIKELY(e->proxy)) {
    rt_net_epoch_done(e->home, e->hdr.guid, 1);
    return;
  }
  if (atomic_fetch_sub_explicit(&e->pending, 1, memory_order_acq_rel) == 1)
    terminate(e);
}

void rt_epoch_finish_task(rt_epoch *e, rt_ctx *ctx) {
  if (!ctx->spare && !ctx->added) {
    rt_epoch_finish_one(e);
    return;
  }
  if (e->finish_edt)
    atomic_fetch_add_explicit(&e->counted, (uint64_t)ctx->added, memory_order_relaxed);
  int64_t settle = 1 + ctx->spare;
  ctx->spare = ctx->added = 0;
  if (atomic_fetch_sub_explicit(&e->pending, settle, memory_order_acq_rel) == settle)
    terminate(e);
}

/* The creator lets go of its epoch: settle the credit, then release the hold. */
static void release_hold(rt_epoch *e) {
  int64_t settle = 1 + e->credit - e->local;
  if (e->finish_edt && e->local)
    atomic_fetch_add_explicit(&e->counted, (uint64_t)e->local, memory_order_relaxed);
  e->credit = e->local = 0;
  if (atomic_fetch_sub_explicit(&e->pending, settle, memory_order_acq_rel) == settle)
    terminate(e);
}

void rt_ctx_release_epochs(rt_ctx *ctx) {
  rt_epoch *e = ctx->stack_top;
  ctx->stack_top = NULL;
  while (e) {
    rt_epoch *below = e->stack_below;
    release_hold(e);
    e = below;
  }
}

artsGuid_t artsInitializeAndStartEpoch(artsGuid_t finishEdt, uint32_t slot) {
  rt_check_running("artsInitializeAndStartEpoch");
  rt_ctx *ctx = rt_tls_ctx;
  if (!ctx)
    rt_fatal_plain("artsInitializeAndStartEpoch: the calling thread is not running a task");
  if (finishEdt != NULL_GUID && artsGuidGetType(finishEdt) != ARTS_EDT)
    rt_fatal(finishEdt, "artsInitializeAndStartEpoch: the finish task is not a task");
  rt_epoch *e = rt_epoch_new(rt_ctx_current_epoch(ctx), finishEdt, slot);
  e->credit = CREATOR_CREDIT;
  atomic_fetch_add_explicit(&e->pending, CREATOR_CREDIT, memory_order_relaxed);
  e->stack_below = ctx->stack_top;
  ctx->stack_top = e;
  return e->hdr.guid;
}

bool artsWaitOnHandle(artsGuid_t epoch) {
  rt_check_running("artsWaitOnHandle");
  if (rt.net)
    rt_net_launch_flush(); /* nothing this thread holds may wait for its own wait */
  rt_ctx *ctx = rt_tls_ctx;
  if (!ctx || !rt_tls_worker)
    rt_fatal(epoch, "artsWaitOnHandle: the calling thread is not running a task");
  if (artsGuidGetType(epoch) != ARTS_EPOCH)
    rt_fatal(epoch, "artsWaitOnHandle: not an epoch");
  if (!rt_route_is_local(artsGuidGetRank(epoch)))
    rt_fatal(epoch, "artsWaitOnHandle: waiting on an epoch of another node is not supported");

  /* The creator's wait releases its hold and takes the epoch off its stack. */
  rt_epoch *e = NULL;
  for (rt_epoch **link = &ctx->stack_top; *link; link = &(*link)->stack_below)
    if ((*link)->hdr.guid == epoch) {
      e = *link;
      *link = e->stack_below;
      e->stack_below = NULL;
      atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
      release_hold(e);
      break;
    }
  if (!e) { /* someone else's epoch: wait without touching its hold */
    rt_shard *s = rt_table_shard(epoch);
    rt_lock_acquire(&s->lock);
    e = (rt_epoch *)rt_shard_find(s, epoch);
    if (e)
      atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
    rt_lock_release(&s->lock);
    if (!e) {
      if (!rt_guid_was_minted(epoch))
        rt_fatal(epoch, "artsWaitOnHandle: unknown epoch");
      return true; /* it has already ended */
    }
  }
  int ended = rt_sched_help_until(e);
  rt_epoch_unref(e);
  return ended;
}
