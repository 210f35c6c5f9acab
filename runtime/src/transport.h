/* The seam between one node's runtime and the other nodes (implemented in net.c, carried by wire.c).

   The API entry points decide locally whether the object they act on is owned by this node
   (its GUID's route, or the route argument). An operation on an object owned elsewhere
   becomes a message appended to the outbox of the owner node; the wire (wire.c) takes each
   outbox as one batch, writes it on its connection to the destination node and applies it
   there, batches from one source in the order they were taken. The
   receiving runtime applies each message exactly as if the call had been made locally (same
   out-of-order queues for objects not created yet).

   Epochs are counted at their home node (the GUID's route), over these ordered channels:
   work counted in an epoch by another node is announced to the home (rt_net_epoch_add)
   before anything can finish it, and each finished task, put or get is reported
   (rt_net_epoch_done). A node other than the home creates tasks and puts for third nodes
   through the home, so that the home has counted them before their completion can arrive
   from anywhere.

   Datablocks: an acquire by a task on another node is queued at the owner like a local one;
   when its generation starts, the owner ships the payload (rt_net_grant), unless that node
   already holds the current version: every WRITE or CONCURRENT acquire and every put gives
   the datablock a new version, and each node keeps its newest copy of each datablock. A
   READ is a snapshot: the owner releases it at once. A WRITE (or CONCURRENT, which is exclusive across
   nodes) is held at the owner until the task's node writes the whole payload back
   (rt_net_write_back), before the task's epoch hears of its completion.

   Task functions travel as indices into the table the node actor registered
   (cartsNodeSetFunctions): every node JIT-compiles the same module, so index i names the
   same function everywhere while its address differs. */
#ifndef CARTS_RT_TRANSPORT_H
#define CARTS_RT_TRANSPORT_H

#include "arts.h"

#include <stdint.h>

/* Whether this run has other nodes (cartsNodeInit was called before artsRT). */
int rt_net_installed(void);
/* This node and the node count, if installed (returns 0 otherwise). */
int rt_net_topology(uint32_t *node, uint32_t *nodes);
/* Called by artsRT: the run starts (after initPerNode, deliveries are applied), ends. */
void rt_net_run_started(void);
void rt_net_run_ended(void);

void rt_net_create_edt(uint32_t node, artsGuid_t edt, artsEdt_t fn, uint32_t paramc,
                       const uint64_t *paramv, uint32_t depc, artsGuid_t epoch);
void rt_net_record_dep(uint32_t node, artsGuid_t db, artsGuid_t edt, uint32_t slot,
                       uint32_t mode);
/* `count` dependences of `edt` on datablocks of `node`: {db, slot | mode << 32} pairs. */
void rt_net_record_deps(uint32_t node, artsGuid_t edt, const uint64_t *pairs, uint64_t count);
/* kind: ARTS_NULL, ARTS_SINGLE_VALUE (value = the value) or a datablock type (value = db) */
void rt_net_signal(uint32_t node, artsGuid_t edt, uint32_t slot, uint32_t kind, uint64_t value);
/* `version` is the datablock's version the task sees (a WRITE: the one it makes out of
   `prev`); with `cached` the node already holds that content (READ: `version`, WRITE:
   `prev`) and no payload travels. */
void rt_net_grant(uint32_t node, artsGuid_t edt, uint32_t slot, artsGuid_t db, uint32_t mode,
                  uint64_t version, uint64_t prev, int cached, const void *payload,
                  uint64_t bytes);
void rt_net_write_back(uint32_t node, artsGuid_t db, const void *payload, uint64_t bytes);
/* A CONCURRENT writer's release: only the bytes that differ between `now` and `was` (other
   nodes may have written other bytes of the same generation meanwhile). */
void rt_net_write_back_changes(uint32_t node, artsGuid_t db, const unsigned char *now,
                               const unsigned char *was, uint64_t bytes);
void rt_net_put(uint32_t node, artsGuid_t epoch, artsGuid_t db, uint32_t offset, const void *src,
                uint32_t bytes);
/* `handle` is returned unchanged in the reply (the requester's bookkeeping). */
void rt_net_get(uint32_t node, artsGuid_t db, uint32_t offset, uint32_t bytes, uint64_t handle);
void rt_net_get_reply(uint32_t node, uint64_t handle, const void *data, uint32_t bytes);
/* The owner's payload of `db` at `version`, for `node` to keep (artsDbShare). */
void rt_net_copy(uint32_t node, artsGuid_t db, uint64_t version, const void *payload,
                 uint64_t bytes);
void rt_net_create_db(uint32_t node, artsGuid_t db, uint64_t bytes);
void rt_net_destroy_db(uint32_t node, artsGuid_t db);
void rt_net_epoch_add(uint32_t node, artsGuid_t epoch);
void rt_net_epoch_done(uint32_t node, artsGuid_t epoch, uint64_t n);
/* Tell every other node to stop (node 0, once). */
void rt_net_shutdown_all(void);
/* Tell node 0 that the program called exit(code) on this node. */
void rt_net_exit(int code);

/* Queue what the calling thread holds in a launch (artsLaunchBegin) now: it is about to wait. */
void rt_net_launch_flush(void);

/* Counters for cartsNodeStats. */
void rt_net_count_task_run(void);
void rt_net_count_epoch(void);
void rt_net_count_batch(int sent);

/* For the wire (wire.c), which carries batches between the nodes' processes. */
/* Wait until some outbox has bytes (1) or the run has ended (-1: take what is left, stop). */
int rt_net_wait_outbox(void);
/* Take everything queued for `dest`: its length, and a malloc'd buffer in *buf (NULL if none). */
uint64_t rt_net_take_outbox(uint32_t dest, void **buf);
/* Whether something is queued for `dest` (a hint: read without the outbox's lock). */
int rt_net_outbox_pending(uint32_t dest);
/* Write what is queued for every node now, from the calling thread (wire.c). */
void rt_net_flush(void);
/* Apply one batch from node `src`, waiting until this node's run has started; 0 if the run
   is over and the batch was dropped. Batches of one source must come in the order taken. */
int rt_net_deliver(uint32_t src, const void *batch, uint64_t bytes);

#endif /* CARTS_RT_TRANSPORT_H */
