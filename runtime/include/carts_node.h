/*
 * carts_node.h: how a node actor drives one node of a multi-node run (libcartsrt).
 *
 * Every node is one process holding this library and its own JIT of the program. Before
 * calling the program's main (which calls artsRT), the actor installs the transport with
 * cartsNodeInit, registers the program's task functions and hands over its connections to the
 * other nodes (cartsNodeAttach); the runtime's own threads carry the messages while the run
 * lasts. Node 0 runs artsMain; every node stops when node 0 shuts down.
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
/* The connections of this run: out_fds[n] is a connected stream socket that carries this
   node's messages to node n, in_fds[n] one that brings node n's (either -1 at this node's own
   index). The runtime owns them from here: a thread writes, one per peer reads, until
   cartsNodeDetach closes them. Returns 0, or -1 if the transport is not installed or already
   attached. */
ARTS_API int cartsNodeAttach(const int *out_fds, const int *in_fds);
/* After the actor's main returned: send what is left, close the connections, join the
   threads (messages still arriving are dropped). Idempotent. */
ARTS_API void cartsNodeDetach(void);
/* The actor's main returned: deliveries still waiting for the run to start (it may never
   have started, if artsRT failed) are dropped, and the sender sees the end. Idempotent. */
ARTS_API void cartsNodeStop(void);
/* Counters of this node's run: tasks run, tasks received from other nodes, messages sent,
   bytes sent, messages received, bytes received, datablock payload bytes sent, received,
   batches sent and received (a batch is one write on the wire: the messages queued for one
   node when the sender took them), epochs created on this node, and the part of the
   datablock bytes sent and received that the host's flushes and fetches moved (puts and
   gets: the host synchronisation around the tasks, as opposed to the tasks' own grants and
   write-backs), then the control messages sent and received (every message but those
   carrying datablock bytes: creations, dependences, signals, epoch counts, requests), and
   the launches this node's threads made (artsLaunchBegin .. artsLaunchEnd, outermost). */
#define CARTS_NODE_STATS 16
ARTS_API void cartsNodeStats(uint64_t out[CARTS_NODE_STATS]);

#ifdef __cplusplus
}
#endif

#endif /* CARTS_NODE_H */
