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

rt_edt *rt_edt_claim(artsGuid_t guid, uint32_t slot, uintptr_t state, const char *api) {
  if (RT_UNLIKELY(artsGuidGetType(guid) != ARTS_EDT))
    rt_fatal(guid, "%s: not a task", api);
  rt_shard *s = rt_table_shard(guid);
  pthread_mutex_lock(&s->lock);
  rt_edt *t = (rt_edt *)rt_shard_find(s, guid);
  if (RT_UNLIKELY(!t)) {
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
    const rt_transport *tr = rt_remote(route, guid, api);
    tr->create_edt(tr->self, route, guid, fn, paramc, paramv, depc, e->hdr.guid);
    return guid;
  }
  rt_edt *t = rt_edt_new(fn, guid, paramc, paramv, depc, e);
  if (depc == 0)
    rt_sched_push(t);
  else
    rt_table_insert(&t->hdr);
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
  const rt_transport *tr = rt_remote(node, edt, api);
  tr->signal(tr->self, node, edt, slot, kind, value);
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
    const rt_transport *tr = rt_remote(owner, db, api);
    tr->record_dep(tr->self, owner, db, edt, slot, mode);
    return;
  }
  rt_db *d = rt_db_get(db, api);
  rt_edt *t = rt_edt_claim(edt, slot, (uintptr_t)d, api);
  rt_db_acquire(d, t, slot, mode);
}

void rt_edt_run(rt_edt *t) {
  rt_ctx ctx = {.edt = t, .enrolled = t->epoch, .stack_top = NULL};
  rt_ctx *outer = rt_tls_ctx;
  rt_tls_ctx = &ctx;
  t->fn(t->paramc, t->paramv, t->depc, t->depv);
  rt_tls_ctx = outer;
  rt_ctx_release_epochs(&ctx);
  for (uint32_t i = 0; i < t->depc; i++)
    if (t->slot_state[i] > RT_SLOT_SIGNAL)
      rt_db_release((rt_db *)t->slot_state[i]);
  rt_epoch *e = t->epoch;
  free(t);
  rt_epoch_finish_one(e);
}
