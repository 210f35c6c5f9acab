/* GUID minting and the GUID -> object table.

   The table is split into shards, each a chained hash table under its own mutex, so that
   workers touching different objects rarely meet. Tasks enter it only while some of their
   slots are unclaimed; datablocks and epochs stay for their lifetime. */
#include "internal.h"

#include <stdlib.h>

#define SHARD_BITS 6
#define SHARD_COUNT (1u << SHARD_BITS)
#define INITIAL_BUCKETS 64
#define KEY_BLOCK 1024 /* run-time keys a worker takes at a time */

static rt_shard shards[SHARD_COUNT];

static inline uint64_t guid_hash(artsGuid_t guid) {
  uint64_t h = guid * UINT64_C(0x9E3779B97F4A7C15);
  return h ^ (h >> 29);
}

void rt_table_init(void) {
  for (unsigned i = 0; i < SHARD_COUNT; i++) {
    rt_shard *s = &shards[i];
    rt_lock_init(&s->lock);
    s->buckets = calloc(INITIAL_BUCKETS, sizeof *s->buckets);
    if (!s->buckets)
      rt_fatal_plain("out of memory for the GUID table");
    s->mask = INITIAL_BUCKETS - 1;
    s->count = 0;
  }
}

void rt_table_destroy(void) {
  for (unsigned i = 0; i < SHARD_COUNT; i++) {
    free(shards[i].buckets);
    shards[i].buckets = NULL;
  }
}

rt_shard *rt_table_shard(artsGuid_t guid) { return &shards[guid_hash(guid) >> (64 - SHARD_BITS)]; }

static inline size_t bucket_of(const rt_shard *s, artsGuid_t guid) { return guid_hash(guid) & s->mask; }

rt_obj *rt_shard_find(rt_shard *s, artsGuid_t guid) {
  for (rt_obj *o = s->buckets[bucket_of(s, guid)]; o; o = o->next)
    if (o->guid == guid)
      return o;
  return NULL;
}

static void grow(rt_shard *s) {
  size_t size = (s->mask + 1) * 2;
  rt_obj **buckets = calloc(size, sizeof *buckets);
  if (!buckets)
    return; /* keep the longer chains */
  for (size_t i = 0; i <= s->mask; i++) {
    rt_obj *o = s->buckets[i];
    while (o) {
      rt_obj *next = o->next;
      size_t b = guid_hash(o->guid) & (size - 1);
      o->next = buckets[b];
      buckets[b] = o;
      o = next;
    }
  }
  free(s->buckets);
  s->buckets = buckets;
  s->mask = size - 1;
}

void rt_shard_insert(rt_shard *s, rt_obj *obj) {
  if (s->count >= s->mask + 1)
    grow(s);
  size_t b = bucket_of(s, obj->guid);
  obj->next = s->buckets[b];
  s->buckets[b] = obj;
  s->count++;
}

void rt_shard_remove(rt_shard *s, rt_obj *obj) {
  for (rt_obj **link = &s->buckets[bucket_of(s, obj->guid)]; *link; link = &(*link)->next)
    if (*link == obj) {
      *link = obj->next;
      obj->next = NULL;
      s->count--;
      return;
    }
}

void rt_table_insert(rt_obj *obj) {
  rt_shard *s = rt_table_shard(obj->guid);
  rt_lock_acquire(&s->lock);
  rt_shard_insert(s, obj);
  rt_lock_release(&s->lock);
}

void rt_table_remove(rt_obj *obj) {
  rt_shard *s = rt_table_shard(obj->guid);
  rt_lock_acquire(&s->lock);
  rt_shard_remove(s, obj);
  rt_lock_release(&s->lock);
}

void rt_table_visit(void (*visit)(rt_obj *obj, void *arg), void *arg) {
  for (unsigned i = 0; i < SHARD_COUNT; i++) {
    rt_shard *s = &shards[i];
    rt_lock_acquire(&s->lock);
    for (size_t b = 0; b <= s->mask; b++)
      for (rt_obj *o = s->buckets[b]; o; o = o->next)
        visit(o, arg);
    rt_lock_release(&s->lock);
  }
}

void rt_table_drain(void (*visit)(rt_obj *obj, void *arg), void *arg) {
  for (unsigned i = 0; i < SHARD_COUNT; i++) {
    rt_shard *s = &shards[i];
    for (size_t b = 0; b <= s->mask; b++) {
      rt_obj *o = s->buckets[b];
      s->buckets[b] = NULL;
      while (o) {
        rt_obj *next = o->next;
        visit(o, arg);
        o = next;
      }
    }
    s->count = 0;
  }
}

/* Keys: before the workers start, 1, 2, 3, ... (the same sequence on every node); afterwards
   [1 | node | sequence], handed to workers in blocks so minting takes no shared atomic. */
uint64_t rt_mint_key(void) {
  if (!atomic_load_explicit(&rt.started, memory_order_acquire)) {
    uint64_t key = atomic_fetch_add(&rt.init_key, 1);
    if (key >= RT_KEY_RUN_BIT)
      rt_fatal_plain("too many GUIDs reserved before the workers started");
    return key;
  }
  rt_worker *w = rt_tls_worker;
  uint64_t seq;
  if (RT_LIKELY(w != NULL)) {
    if (RT_UNLIKELY(w->key_next == w->key_end)) {
      w->key_next = atomic_fetch_add(&rt.run_seq, KEY_BLOCK);
      w->key_end = w->key_next + KEY_BLOCK;
    }
    seq = w->key_next++;
  } else {
    seq = atomic_fetch_add(&rt.run_seq, 1);
  }
  if (RT_UNLIKELY(seq >= RT_KEY_SEQ_LIMIT))
    rt_fatal_plain("GUID space of node %u exhausted", rt.node);
  return RT_KEY_RUN_BIT | ((uint64_t)rt.node << RT_KEY_NODE_SHIFT) | seq;
}

int rt_guid_was_minted(artsGuid_t guid) {
  uint64_t key = artsGuidGetKey(guid);
  if (key == 0)
    return 0;
  if (!(key & RT_KEY_RUN_BIT))
    return key < atomic_load_explicit(&rt.init_key, memory_order_relaxed);
  uint64_t node = (key & ~RT_KEY_RUN_BIT) >> RT_KEY_NODE_SHIFT;
  if (node != rt.node)
    return node < rt.nodes; /* minted elsewhere: only the owner can tell */
  return (key & (RT_KEY_SEQ_LIMIT - 1)) < atomic_load_explicit(&rt.run_seq, memory_order_relaxed);
}

artsGuid_t artsReserveGuidRoute(uint32_t type, uint32_t route) {
  rt_check_running("artsReserveGuidRoute");
  if (type != ARTS_EDT && type != ARTS_EVENT && type != ARTS_EPOCH && !rt_is_db_type(type))
    rt_fatal_plain("artsReserveGuidRoute: %u is not a GUID type", type);
  return rt_guid_make(type, route % rt.nodes, rt_mint_key());
}
