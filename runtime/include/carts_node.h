/*
 * carts_node.h: how a node actor drives one node of a multi-node run (libcartsrt).
 *
 * Every node is one process holding this library and its own JIT of the program. Before
 * calling the program's main (which calls artsRT), the actor installs the transport with
 * cartsNodeInit and registers the program's task functions; while the run lasts, one of its
 * threads moves outgoing batches (cartsNodeWaitOutbox / cartsNodeTakeOutbox) to the other
 * actors, which hand them to cartsNodeDeliver. Batches from one source must be delivered in
 * the order they were taken. Node 0 runs artsMain; every node stops when node 0 shuts down.
 */
#ifndef CARTS_NODE_H
#define CARTS_NODE_H

#include "arts.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The next artsRT in this process runs as `node` of `nodes` (nodeCount is ignored then). */
ARTS_API int cartsNodeInit(uint32_t node, uint32_t nodes);
/* Task functions by index: fns[i] on every node is the same function of the same module. */
ARTS_API void cartsNodeSetFunctions(void *const *fns, uint32_t count);
/* Wait up to timeout_s for outgoing messages: 1 if some outbox has bytes, 0 on timeout, -1
   once the run has ended (take what is left, then stop). */
ARTS_API int cartsNodeWaitOutbox(double timeout_s);
/* Take everything queued for `dest`: returns its length and stores a buffer the caller frees
   with cartsNodeFree (NULL when empty). */
ARTS_API uint64_t cartsNodeTakeOutbox(uint32_t dest, void **buf);
ARTS_API void cartsNodeFree(void *buf);
/* Apply one batch from node `src` (waits until this node's run has started; returns 0 if
   the run is over and the batch was dropped, 1 otherwise). */
ARTS_API int cartsNodeDeliver(uint32_t src, const void *batch, uint64_t bytes);
/* The actor's main returned: deliveries still waiting for the run to start (it may never
   have started, if artsRT failed) are dropped, and the pump sees the end. Idempotent. */
ARTS_API void cartsNodeStop(void);
/* Counters of this node's run: tasks run, tasks received from other nodes, messages sent,
   bytes sent, messages received, bytes received, datablock payload bytes sent, received. */
#define CARTS_NODE_STATS 8
ARTS_API void cartsNodeStats(uint64_t out[CARTS_NODE_STATS]);

#ifdef __cplusplus
}
#endif

#endif /* CARTS_NODE_H */
