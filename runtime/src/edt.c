/* Tasks (EDTs): creation, slots, execution.

   A task is one allocation: the header, a copy of its parameters, its dependence slots (what
   the task function sees) and one word of bookkeeping per slot. It sits in the GUID table
   while some slot is unclaimed (claims check range and double use under the shard lock);
   after the last claim only the datablocks it waits on know it, and the last satisfied slot
   hands it to the scheduler. */
#include "internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The lowering reads depv as an array of {i64 guid, i32 mode, ptr ptr}. */
_Static_assert(sizeof(artsEdtDep_t) == 24 && offsetof(artsEdtDep_t, ptr) == 16,
               "artsEdtDep_t layout is part of the ABI the compiler emits");

rt_edt *rt_edt_new(artsEdt_t fn, artsGuid_t guid, uint32_t paramc, const uint64_t *paramv,
                   uint32_t depc, rt_epoch *epoch) {
  size_t size = sizeof(rt_edt) + (size_t)paramc * sizeof(uint64_t) +
                (size_t)depc * (sizeof(artsEdtDep_t) + sizeof(uintptr_t));
  rt_edt *t = malloc(size);
  if (RT_UNLIKELY(!t))
    rt_fatal(guid, "out of memory for a task with %u parameters and %u dependences", paramc, depc);
  t->hdr.guid = guid;
  t->hdr.next = NULL;
  t->fn = fn;
  t->epoch = epoch;
  t->paramc = paramc;
  t->depc = depc;
  t->unclaimed = depc;
  atomic_init(&t->unsatisfied, depc);
  t->depv = (artsEdtDep_t *)(t + 1);
  t->slot_state = (uintptr_t *)(t->depv + depc);
  t->paramv = (uint64_t *)(t->slot_state + depc);
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
  rt_remote_dep *copy;
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
  pthread_mutex_lock(&s->lock);
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
      pthread_mutex_unlock(&s->lock);
      return NULL;
    }
    pthread_mutex_unlock(&s->lock);
    if (rt_guid_was_minted(guid))
      rt_fatal(guid, "%s: slot %u of a task that has no unsatisfied slot left (it has run, is "
                     "ready, or was created with fewer dependences)",
               api, slot);
    rt_fatal(guid, "%s: unknown task", api);
  }
  if (RT_UNLIKELY(slot >= t->depc)) {
    uint32_t depc = t->depc;
    pthread_mutex_unlock(&s->lock);
    rt_fatal(guid, "%s: slot %u out of range (the task has %u dependences)", api, slot, depc);
  }
  if (RT_UNLIKELY(t->slot_state[slot] != RT_SLOT_FREE)) {
    pthread_mutex_unlock(&s->lock);
    rt_fatal(guid, "%s: slot %u is already satisfied", api, slot);
  }
  t->slot_state[slot] = state;
  if (--t->unclaimed == 0)
    rt_shard_remove(s, &t->hdr);
  pthread_mutex_unlock(&s->lock);
  return t;
}

rt_edt *rt_edt_claim(artsGuid_t guid, uint32_t slot, uintptr_t state, const char *api) {
  return claim(guid, slot, state, api, NULL);
}

static uintptr_t early_state(const rt_early *x) {
  return x->copy ? (uintptr_t)x->copy | RT_SLOT_REMOTE_TAG : RT_SLOT_SIGNAL;
}

static void early_satisfy(rt_edt *t, const rt_early *x) {
  if (x->copy)
    rt_edt_satisfy(t, x->slot, x->copy->db, x->mode, x->copy->data);
  else if (x->mode == ARTS_SINGLE_VALUE)
    rt_edt_satisfy(t, x->slot, x->value, ARTS_SINGLE_VALUE, NULL);
  else
    rt_edt_satisfy(t, x->slot, NULL_GUID, ARTS_NULL, NULL);
}

void rt_edt_publish(rt_edt *t) {
  artsGuid_t guid = t->hdr.guid;
  rt_shard *s = rt_table_shard(guid);
  rt_early *mine = NULL, **mine_tail = &mine;
  pthread_mutex_lock(&s->lock);
  rt_shard_insert(s, &t->hdr);
  /* A slot claim that missed the task queued itself under this same shard lock, so the
     count read here cannot miss it. */
  if (RT_LIKELY(atomic_load_explicit(&early_count, memory_order_relaxed) == 0)) {
    pthread_mutex_unlock(&s->lock);
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
  pthread_mutex_unlock(&s->lock);
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

void rt_edt_remote_grant(artsGuid_t edt, uint32_t slot, artsGuid_t db, uint32_t mode,
                         uint32_t owner, const void *data, uint64_t bytes) {
  rt_early *x = calloc(1, sizeof *x);
  rt_remote_dep *copy = malloc(sizeof *copy + (bytes ? bytes : 1));
  if (!x || !copy)
    rt_fatal(db, "out of memory for a copy of %llu bytes", (unsigned long long)bytes);
  copy->db = db;
  copy->mode = mode;
  copy->owner = owner;
  copy->bytes = bytes;
  copy->was = NULL;
  memcpy(copy->data, data, bytes);
  if (mode == ARTS_DB_CONCURRENT) {
    copy->was = malloc(bytes ? bytes : 1);
    if (!copy->was)
      rt_fatal(db, "out of memory for a copy of %llu bytes", (unsigned long long)bytes);
    memcpy(copy->was, data, bytes);
  }
  x->edt = edt;
  x->slot = slot;
  x->mode = mode;
  x->copy = copy;
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
  if (depc == 0)
    rt_sched_push(t);
  else
    rt_edt_publish(t);
}

static artsGuid_t create(artsEdt_t fn, uint32_t route, uint32_t paramc, uint64_t *paramv,
                         uint32_t depc, artsGuid_t epoch, const char *api) {
  rt_check_running(api);
  if (RT_UNLIKELY(!fn))
    rt_fatal_plain("%s: null task function", api);
  if (RT_UNLIKELY(paramc && !paramv))
    rt_fatal_plain("%s: %u parameters but no parameter array", api, paramc);
  route %= rt.nodes;
  rt_epoch *e = rt_epoch_enrol(epoch, api);
  artsGuid_t guid = rt_guid_make(ARTS_EDT, route, rt_mint_key());
  if (RT_UNLIKELY(!rt_route_is_local(route))) {
    rt_check_remote(route, guid, api);
    /* Outside the epoch's home, through the home: it has counted the task (the enrolment
       above went there first) before the task can finish anywhere. */
    rt_net_create_edt(e->proxy ? e->home : route, guid, fn, paramc, paramv, depc, e->hdr.guid);
    return guid;
  }
  rt_edt *t = rt_edt_new(fn, guid, paramc, paramv, depc, e);
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
  if (RT_UNLIKELY(!rt_is_db_type(mode)))
    rt_fatal(db, "%s: access mode %u is none of ARTS_DB_READ, ARTS_DB_WRITE, ARTS_DB_CONCURRENT",
             api, mode);
  uint32_t owner = artsGuidGetRank(db);
  if (RT_UNLIKELY(!rt_route_is_local(owner))) {
    rt_check_remote(owner, db, api);
    rt_net_record_dep(owner, db, edt, slot, mode);
    return;
  }
  rt_db_record(db, edt, slot, mode);
}

void rt_edt_run(rt_edt *t) {
  rt_ctx ctx = {.edt = t, .enrolled = t->epoch, .stack_top = NULL};
  rt_ctx *outer = rt_tls_ctx;
  rt_tls_ctx = &ctx;
  t->fn(t->paramc, t->paramv, t->depc, t->depv);
  rt_tls_ctx = outer;
  rt_ctx_release_epochs(&ctx);
  for (uint32_t i = 0; i < t->depc; i++) {
    uintptr_t state = t->slot_state[i];
    if (state & RT_SLOT_REMOTE_TAG) {
      /* A copy of another node's datablock: writers send it back before the task counts
         as finished (the owner holds the next generation until then). */
      rt_remote_dep *copy = (rt_remote_dep *)(state & ~RT_SLOT_REMOTE_TAG);
      if (copy->mode == ARTS_DB_CONCURRENT)
        rt_net_write_back_changes(copy->owner, copy->db, copy->data, copy->was, copy->bytes);
      else if (copy->mode != ARTS_DB_READ)
        rt_net_write_back(copy->owner, copy->db, copy->data, copy->bytes);
      free(copy->was);
      free(copy);
    } else if (state > RT_SLOT_SIGNAL) {
      rt_db_release((rt_db *)state);
    }
  }
  if (rt.net)
    rt_net_count_task_run();
  rt_epoch *e = t->epoch;
  free(t);
  rt_epoch_finish_one(e);
}
