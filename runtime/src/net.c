/* The node transport's messages: per-destination outboxes of encoded messages, and the
   delivery of batches from other nodes. wire.c carries the batches between the nodes'
   processes; see transport.h for the protocol.

   A message is a header {kind, argument count, data bytes}, that many 64-bit arguments, then
   the data padded to 8 bytes. */
#include "internal.h"
#include "carts_node.h"

#include <stdlib.h>
#include <string.h>

enum {
  M_CREATE_EDT = 1, /* edt, epoch, function index, depc, route; data: params */
  M_RECORD_DEP,     /* db, edt, slot, mode */
  M_SIGNAL,         /* edt, slot, kind, value */
  M_GRANT,          /* edt, slot, db, mode, version, prev, cached; data: payload unless cached */
  M_WRITE_BACK,     /* db, ranges?; data: payload, or {offset, length, bytes} runs */
  M_PUT,            /* epoch, db, offset; data */
  M_GET,            /* db, offset, bytes, handle */
  M_GET_REPLY,      /* handle; data */
  M_CREATE_DB,      /* db, bytes */
  M_DESTROY_DB,     /* db */
  M_EPOCH_ADD,      /* epoch */
  M_EPOCH_DONE,     /* epoch, how many finished */
  M_SHUTDOWN,
  M_EXIT,        /* code: the program called exit() on the sending node */
  M_RECORD_DEPS, /* edt; data: {db, slot | mode << 32} pairs, recorded in order */
  M_COPY,        /* db, version; data: the owner's payload at that version (artsDbShare) */
  M_LAUNCH,      /* data: the messages one thread sent the node during a launch, in order */
};

typedef struct {
  uint32_t kind;
  uint32_t nargs;
  uint64_t bytes;
} msg_hdr;

typedef struct {
  pthread_mutex_t lock;
  unsigned char *buf;
  uint64_t len, cap;
} outbox;

enum {
  S_TASKS_RUN, S_TASKS_IN, S_MSGS_OUT, S_BYTES_OUT, S_MSGS_IN, S_BYTES_IN, S_DB_OUT, S_DB_IN,
  S_BATCHES_OUT, S_BATCHES_IN, S_EPOCHS, S_SYNC_OUT, S_SYNC_IN, S_CONTROL_OUT, S_CONTROL_IN,
  S_LAUNCHES
};

static struct {
  int installed;
  uint32_t node, nodes;
  outbox *out;
  void **fns;
  uint32_t nfns;

  pthread_mutex_t lock; /* guards the fields below */
  pthread_cond_t cond;
  int ready;     /* an outbox got bytes since the last wait */
  int accepting; /* the run has started: deliveries are applied */
  int ended;     /* the run is over: deliveries are dropped */
  int inflight;  /* deliveries being applied */

  _Atomic int shutdown_sent;
  _Atomic uint64_t stats[CARTS_NODE_STATS];
} net = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

static inline uint64_t pad8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

/* A launch (artsLaunchBegin .. artsLaunchEnd) of the calling thread: what it sends each node
   meanwhile is held here and leaves as one M_LAUNCH per node at the end. */
static __thread struct {
  uint32_t depth;
  outbox *held; /* per node; NULL until the thread's first launch */
} launch;

int rt_net_installed(void) { return net.installed; }

int rt_net_topology(uint32_t *node, uint32_t *nodes) {
  if (!net.installed)
    return 0;
  *node = net.node;
  *nodes = net.nodes;
  return 1;
}

int cartsNodeInit(uint32_t node, uint32_t nodes) {
  if (nodes < 1 || node >= nodes || nodes > 0xFFFF)
    return -1;
  pthread_mutex_lock(&net.lock);
  if (net.out) {
    for (uint32_t i = 0; i < net.nodes; i++) {
      free(net.out[i].buf);
      pthread_mutex_destroy(&net.out[i].lock);
    }
    free(net.out);
  }
  net.out = calloc(nodes, sizeof *net.out);
  if (!net.out) {
    pthread_mutex_unlock(&net.lock);
    return -1;
  }
  for (uint32_t i = 0; i < nodes; i++)
    pthread_mutex_init(&net.out[i].lock, NULL);
  net.node = node;
  net.nodes = nodes;
  net.installed = 1;
  net.ready = net.accepting = net.ended = net.inflight = 0;
  atomic_store(&net.shutdown_sent, 0);
  for (int i = 0; i < CARTS_NODE_STATS; i++)
    atomic_store(&net.stats[i], 0);
  pthread_mutex_unlock(&net.lock);
  return 0;
}

void cartsNodeSetFunctions(void *const *fns, uint32_t count) {
  free(net.fns);
  net.fns = malloc((count ? count : 1) * sizeof *net.fns);
  if (!net.fns)
    rt_fatal_plain("out of memory for the task function table");
  memcpy(net.fns, fns, count * sizeof *fns);
  net.nfns = count;
}

static uint64_t function_index(artsEdt_t fn, artsGuid_t edt) {
  for (uint32_t i = 0; i < net.nfns; i++)
    if (net.fns[i] == (void *)fn)
      return i;
  rt_fatal(edt, "a task for another node runs a function the node actor did not register");
}

static void bump(int stat, uint64_t n) {
  atomic_fetch_add_explicit(&net.stats[stat], n, memory_order_relaxed);
}

void rt_net_count_task_run(void) { bump(S_TASKS_RUN, 1); }
void rt_net_count_epoch(void) { bump(S_EPOCHS, 1); }
void rt_net_count_batch(int sent) { bump(sent ? S_BATCHES_OUT : S_BATCHES_IN, 1); }

/* Whether messages of `kind` carry datablock bytes (the others are control). */
static int carries_data(uint32_t kind) {
  return kind == M_GRANT || kind == M_WRITE_BACK || kind == M_PUT || kind == M_GET_REPLY ||
         kind == M_COPY;
}

/* Whether they are the host's synchronisation (flushes, fetches, shared copies). */
static int host_sync(uint32_t kind) {
  return kind == M_PUT || kind == M_GET_REPLY || kind == M_COPY;
}

/* Append one encoded message to `o` (growing it). */
static void encode(outbox *o, uint32_t kind, const uint64_t *args, uint32_t nargs,
                   const void *data, uint64_t bytes) {
  uint64_t size = sizeof(msg_hdr) + 8 * (uint64_t)nargs + pad8(bytes);
  if (o->len + size > o->cap) {
    uint64_t cap = o->cap ? o->cap : 4096;
    while (cap < o->len + size)
      cap *= 2;
    unsigned char *grown = realloc(o->buf, cap);
    if (!grown)
      rt_fatal_plain("out of memory for a message of %llu bytes", (unsigned long long)size);
    o->buf = grown;
    o->cap = cap;
  }
  unsigned char *p = o->buf + o->len;
  msg_hdr h = {kind, nargs, bytes};
  memcpy(p, &h, sizeof h);
  memcpy(p + sizeof h, args, 8 * (size_t)nargs);
  if (bytes)
    memcpy(p + sizeof h + 8 * (size_t)nargs, data, bytes);
  memset(p + sizeof h + 8 * (size_t)nargs + bytes, 0, pad8(bytes) - bytes);
  o->len += size;
}

/* Queue one message for `node`: one message of the transport, counted as such. */
static void queue(uint32_t node, uint32_t kind, const uint64_t *args, uint32_t nargs,
                  const void *data, uint64_t bytes) {
  outbox *o = &net.out[node];
  pthread_mutex_lock(&o->lock);
  encode(o, kind, args, nargs, data, bytes);
  pthread_mutex_unlock(&o->lock);
  bump(S_MSGS_OUT, 1);
  bump(S_BYTES_OUT, sizeof(msg_hdr) + 8 * (uint64_t)nargs + pad8(bytes));
  if (!carries_data(kind))
    bump(S_CONTROL_OUT, 1);
  pthread_mutex_lock(&net.lock);
  if (!net.ready) {
    net.ready = 1;
    pthread_cond_broadcast(&net.cond);
  }
  pthread_mutex_unlock(&net.lock);
}

/* Whether a message of `kind` may wait in a launch: not the epoch announcements, which must
   reach the home before any end they count (other threads send those directly). */
static int holdable(uint32_t kind) {
  return kind != M_EPOCH_ADD && kind != M_SHUTDOWN && kind != M_EXIT;
}

static void send(uint32_t node, uint32_t kind, const uint64_t *args, uint32_t nargs,
                 const void *data, uint64_t bytes) {
  if (RT_UNLIKELY(node >= net.nodes || node == net.node))
    rt_fatal_plain("internal error: message for node %u from node %u", node, net.node);
  if (carries_data(kind))
    bump(S_DB_OUT, bytes);
  if (host_sync(kind))
    bump(S_SYNC_OUT, bytes);
  if (launch.depth && holdable(kind)) {
    encode(&launch.held[node], kind, args, nargs, data, bytes);
    return;
  }
  queue(node, kind, args, nargs, data, bytes);
}

void artsLaunchBegin(void) {
  if (!net.installed)
    return;
  if (!launch.held) {
    launch.held = calloc(net.nodes, sizeof *launch.held);
    if (!launch.held)
      rt_fatal_plain("out of memory for a launch");
  }
  launch.depth++;
}

void rt_net_launch_flush(void) {
  if (!launch.held)
    return;
  for (uint32_t n = 0; n < net.nodes; n++) {
    outbox *h = &launch.held[n];
    if (!h->len)
      continue;
    msg_hdr first;
    memcpy(&first, h->buf, sizeof first);
    if (sizeof first + 8 * (uint64_t)first.nargs + pad8(first.bytes) == h->len)
      queue(n, first.kind, (const uint64_t *)(h->buf + sizeof first), first.nargs,
            h->buf + sizeof first + 8 * (size_t)first.nargs, first.bytes); /* only one */
    else
      queue(n, M_LAUNCH, NULL, 0, h->buf, h->len);
    h->len = 0;
    if (h->cap > ((uint64_t)1 << 20)) { /* a large grant went through: keep no such buffer */
      free(h->buf);
      h->buf = NULL;
      h->cap = 0;
    }
  }
}

void artsLaunchEnd(void) {
  if (!net.installed || !launch.depth)
    return;
  if (--launch.depth == 0) {
    bump(S_LAUNCHES, 1);
    rt_net_launch_flush();
  }
}

void rt_net_create_edt(uint32_t node, artsGuid_t edt, artsEdt_t fn, uint32_t paramc,
                       const uint64_t *paramv, uint32_t depc, artsGuid_t epoch) {
  uint64_t args[] = {edt, epoch, function_index(fn, edt), depc};
  send(node, M_CREATE_EDT, args, 4, paramv, 8 * (uint64_t)paramc);
}

void rt_net_record_dep(uint32_t node, artsGuid_t db, artsGuid_t edt, uint32_t slot,
                       uint32_t mode) {
  uint64_t args[] = {db, edt, slot, mode};
  send(node, M_RECORD_DEP, args, 4, NULL, 0);
}

void rt_net_record_deps(uint32_t node, artsGuid_t edt, const uint64_t *pairs, uint64_t count) {
  uint64_t args[] = {edt};
  send(node, M_RECORD_DEPS, args, 1, pairs, 16 * count);
}

void rt_net_signal(uint32_t node, artsGuid_t edt, uint32_t slot, uint32_t kind, uint64_t value) {
  uint64_t args[] = {edt, slot, kind, value};
  send(node, M_SIGNAL, args, 4, NULL, 0);
}

void rt_net_grant(uint32_t node, artsGuid_t edt, uint32_t slot, artsGuid_t db, uint32_t mode,
                  uint64_t version, uint64_t prev, int cached, const void *payload,
                  uint64_t bytes) {
  uint64_t args[] = {edt, slot, db, mode, version, prev, (uint64_t)cached};
  send(node, M_GRANT, args, 7, cached ? NULL : payload, cached ? 0 : bytes);
}

void rt_net_write_back(uint32_t node, artsGuid_t db, const void *payload, uint64_t bytes) {
  uint64_t args[] = {db, 0};
  send(node, M_WRITE_BACK, args, 2, payload, bytes);
}

void rt_net_write_back_changes(uint32_t node, artsGuid_t db, const unsigned char *now,
                               const unsigned char *was, uint64_t bytes) {
  /* Exact byte runs: an unchanged byte between two changes may be another node's write. */
  unsigned char *list = NULL;
  uint64_t len = 0, cap = 0;
  uint64_t i = 0;
  while (i < bytes) {
    if (i + 8 <= bytes && memcmp(now + i, was + i, 8) == 0) {
      i += 8;
      continue;
    }
    if (now[i] == was[i]) {
      i++;
      continue;
    }
    uint64_t start = i;
    while (i < bytes && now[i] != was[i])
      i++;
    uint64_t run = i - start, need = 16 + pad8(run);
    if (len + need > cap) {
      cap = cap ? cap * 2 : 4096;
      while (cap < len + need)
        cap *= 2;
      unsigned char *grown = realloc(list, cap);
      if (!grown)
        rt_fatal(db, "out of memory for a write-back");
      list = grown;
    }
    uint64_t head[2] = {start, run};
    memcpy(list + len, head, 16);
    memcpy(list + len + 16, now + start, run);
    memset(list + len + 16 + run, 0, pad8(run) - run);
    len += need;
  }
  uint64_t args[] = {db, 1};
  send(node, M_WRITE_BACK, args, 2, list, len);
  free(list);
}

void rt_net_put(uint32_t node, artsGuid_t epoch, artsGuid_t db, uint32_t offset, const void *src,
                uint32_t bytes) {
  uint64_t args[] = {epoch, db, offset};
  send(node, M_PUT, args, 3, src, bytes);
}

void rt_net_get(uint32_t node, artsGuid_t db, uint32_t offset, uint32_t bytes, uint64_t handle) {
  uint64_t args[] = {db, offset, bytes, handle};
  send(node, M_GET, args, 4, NULL, 0);
}

void rt_net_get_reply(uint32_t node, uint64_t handle, const void *data, uint32_t bytes) {
  uint64_t args[] = {handle};
  send(node, M_GET_REPLY, args, 1, data, bytes);
}

void rt_net_copy(uint32_t node, artsGuid_t db, uint64_t version, const void *payload,
                 uint64_t bytes) {
  uint64_t args[] = {db, version};
  send(node, M_COPY, args, 2, payload, bytes);
}

void rt_net_create_db(uint32_t node, artsGuid_t db, uint64_t bytes) {
  uint64_t args[] = {db, bytes};
  send(node, M_CREATE_DB, args, 2, NULL, 0);
}

void rt_net_destroy_db(uint32_t node, artsGuid_t db) {
  uint64_t args[] = {db};
  send(node, M_DESTROY_DB, args, 1, NULL, 0);
}

void rt_net_epoch_add(uint32_t node, artsGuid_t epoch) {
  uint64_t args[] = {epoch};
  send(node, M_EPOCH_ADD, args, 1, NULL, 0);
}

void rt_net_epoch_done(uint32_t node, artsGuid_t epoch, uint64_t n) {
  uint64_t args[] = {epoch, n};
  send(node, M_EPOCH_DONE, args, 2, NULL, 0);
}

void rt_net_shutdown_all(void) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&net.shutdown_sent, &expected, 1))
    return;
  for (uint32_t n = 0; n < net.nodes; n++)
    if (n != net.node)
      send(n, M_SHUTDOWN, NULL, 0, NULL, 0);
}

void rt_net_exit(int code) {
  uint64_t args[] = {(uint64_t)(uint32_t)code};
  send(0, M_EXIT, args, 1, NULL, 0);
}

void rt_net_run_started(void) {
  pthread_mutex_lock(&net.lock);
  net.accepting = 1;
  pthread_cond_broadcast(&net.cond);
  pthread_mutex_unlock(&net.lock);
}

void rt_net_run_ended(void) {
  cartsNodeStop();
  pthread_mutex_lock(&net.lock); /* deliveries already being applied finish first */
  while (net.inflight > 0)
    pthread_cond_wait(&net.cond, &net.lock);
  pthread_mutex_unlock(&net.lock);
}

/* ------------------------------------------------------------------ the actor's side */

void cartsNodeStop(void) {
  pthread_mutex_lock(&net.lock);
  net.ended = 1;
  net.accepting = 0;
  pthread_cond_broadcast(&net.cond);
  pthread_mutex_unlock(&net.lock);
}

int rt_net_wait_outbox(void) {
  pthread_mutex_lock(&net.lock);
  while (!net.ready && !net.ended)
    pthread_cond_wait(&net.cond, &net.lock);
  int result = net.ready ? 1 : -1;
  net.ready = 0;
  pthread_mutex_unlock(&net.lock);
  return result;
}

uint64_t rt_net_take_outbox(uint32_t dest, void **buf) {
  *buf = NULL;
  if (!net.out || dest >= net.nodes)
    return 0;
  outbox *o = &net.out[dest];
  pthread_mutex_lock(&o->lock);
  uint64_t len = o->len;
  if (len) {
    *buf = o->buf;
    o->buf = NULL;
    o->len = o->cap = 0;
  }
  pthread_mutex_unlock(&o->lock);
  return len;
}

int rt_net_outbox_pending(uint32_t dest) {
  return net.out && dest < net.nodes &&
         __atomic_load_n(&net.out[dest].len, __ATOMIC_RELAXED) != 0;
}

void cartsNodeStats(uint64_t out[CARTS_NODE_STATS]) {
  for (int i = 0; i < CARTS_NODE_STATS; i++)
    out[i] = atomic_load(&net.stats[i]);
}

static void apply(uint32_t src, uint32_t kind, const uint64_t *a, const unsigned char *data,
                  uint64_t bytes) {
  switch (kind) {
  case M_CREATE_EDT: {
    artsGuid_t edt = a[0];
    uint32_t route = artsGuidGetRank(edt);
    if (route != net.node) { /* counted here, the epoch's home: pass it on */
      send(route, M_CREATE_EDT, a, 4, data, bytes);
      return;
    }
    if (a[2] >= net.nfns)
      rt_fatal(edt, "a task from node %u names function %llu of %u", src,
               (unsigned long long)a[2], net.nfns);
    bump(S_TASKS_IN, 1);
    rt_edt_remote_create((artsEdt_t)net.fns[a[2]], edt, (uint32_t)(bytes / 8),
                         (const uint64_t *)data, (uint32_t)a[3], a[1]);
    return;
  }
  case M_RECORD_DEP:
    rt_db_record(a[0], a[1], (uint32_t)a[2], (uint32_t)a[3]);
    return;
  case M_RECORD_DEPS: {
    const uint64_t *pair = (const uint64_t *)data;
    for (uint64_t k = 0; k < bytes / 16; k++)
      rt_db_record(pair[2 * k], a[0], (uint32_t)pair[2 * k + 1], (uint32_t)(pair[2 * k + 1] >> 32));
    return;
  }
  case M_SIGNAL:
    rt_edt_remote_signal(a[0], (uint32_t)a[1], (uint32_t)a[2], a[3]);
    return;
  case M_GRANT:
    bump(S_DB_IN, bytes);
    rt_edt_remote_grant(a[0], (uint32_t)a[1], a[2], (uint32_t)a[3], src, a[4], a[5], (int)a[6],
                        data, bytes);
    return;
  case M_WRITE_BACK:
    bump(S_DB_IN, bytes);
    rt_db_write_back(a[0], data, bytes, (int)a[1]);
    return;
  case M_PUT: {
    bump(S_DB_IN, bytes);
    bump(S_SYNC_IN, bytes);
    uint32_t owner = artsGuidGetRank(a[1]);
    if (owner != net.node) { /* counted here, the epoch's home: pass it on */
      send(owner, M_PUT, a, 3, data, bytes);
      return;
    }
    rt_db_put(a[1], rt_epoch_at(a[0], "artsPutInDbEpoch"), (uint32_t)a[2], data,
              (uint32_t)bytes);
    return;
  }
  case M_GET:
    rt_db_remote_get(a[0], src, (uint32_t)a[1], (uint32_t)a[2], a[3]);
    return;
  case M_GET_REPLY:
    bump(S_DB_IN, bytes);
    bump(S_SYNC_IN, bytes);
    rt_db_get_reply(a[0], data, (uint32_t)bytes);
    return;
  case M_COPY:
    bump(S_DB_IN, bytes);
    bump(S_SYNC_IN, bytes);
    rt_edt_remote_copy(a[0], a[1], data, bytes);
    return;
  case M_CREATE_DB:
    artsDbCreateWithGuid(a[0], a[1]);
    return;
  case M_DESTROY_DB:
    artsDbDestroy(a[0]);
    return;
  case M_EPOCH_ADD:
    rt_epoch_remote_add(a[0]);
    return;
  case M_EPOCH_DONE:
    rt_epoch_remote_done(a[0], a[1]);
    return;
  case M_SHUTDOWN:
    rt_request_shutdown();
    return;
  case M_EXIT:
    rt_request_exit((int)(uint32_t)a[0]);
    return;
  default:
    rt_fatal_plain("a message of unknown kind %u from node %u", kind, src);
  }
}

/* Apply the messages of a batch (`counted`: messages of the transport) or of a launch. */
static void apply_all(uint32_t src, const void *messages, uint64_t bytes, int counted) {
  const unsigned char *p = messages, *end = p + bytes;
  while (p < end) {
    msg_hdr h;
    if ((uint64_t)(end - p) < sizeof h)
      rt_fatal_plain("a truncated batch from node %u", src);
    memcpy(&h, p, sizeof h);
    uint64_t size = sizeof h + 8 * (uint64_t)h.nargs + pad8(h.bytes);
    if ((uint64_t)(end - p) < size || h.nargs > 8)
      rt_fatal_plain("a truncated batch from node %u", src);
    uint64_t args[8];
    memcpy(args, p + sizeof h, 8 * (size_t)h.nargs);
    const unsigned char *data = p + sizeof h + 8 * (size_t)h.nargs;
    if (counted) {
      bump(S_MSGS_IN, 1);
      bump(S_BYTES_IN, size);
      if (!carries_data(h.kind))
        bump(S_CONTROL_IN, 1);
    }
    if (h.kind == M_LAUNCH)
      apply_all(src, data, h.bytes, 0);
    else
      apply(src, h.kind, args, data, h.bytes);
    p += size;
  }
}

int rt_net_deliver(uint32_t src, const void *batch, uint64_t bytes) {
  pthread_mutex_lock(&net.lock);
  while (!net.accepting && !net.ended && net.installed)
    pthread_cond_wait(&net.cond, &net.lock);
  if (!net.accepting) {
    pthread_mutex_unlock(&net.lock);
    return 0;
  }
  net.inflight++;
  pthread_mutex_unlock(&net.lock);

  apply_all(src, batch, bytes, 1);

  pthread_mutex_lock(&net.lock);
  if (--net.inflight == 0 && net.ended)
    pthread_cond_broadcast(&net.cond);
  pthread_mutex_unlock(&net.lock);
  return 1;
}
