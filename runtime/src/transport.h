/* The seam between one node's runtime and the other nodes.

   The API entry points decide locally whether the object they act on is owned by this node
   (its GUID's route, or the route argument). Anything owned elsewhere is handed, unchanged,
   to the transport installed for the run; the transport carries it to the owner node, whose
   runtime applies it exactly as if it had been called there (same entry points, same
   out-of-order queues for objects not created yet). Messages to one destination must arrive
   in the order they were sent.

   Epoch accounting across nodes: a task created for another node is counted (pending + 1)
   in its epoch on the creating node before the message leaves; the node that runs it reports
   completion to the epoch's home node through epoch_done. Termination is decided at home.

   The one-node runtime installs no transport: every route is this node, and a remote route
   reaching rt_remote() is an internal error. */
#ifndef CARTS_RT_TRANSPORT_H
#define CARTS_RT_TRANSPORT_H

#include "arts.h"

#include <stdint.h>

typedef struct rt_transport {
  void *self;
  /* Run a task on `node`; its GUID is already minted with that route. The function is
     identified by its address in the (identically JIT-compiled) program on every node. */
  void (*create_edt)(void *self, uint32_t node, artsGuid_t edt, artsEdt_t fn, uint32_t paramc,
                     const uint64_t *paramv, uint32_t depc, artsGuid_t epoch);
  void (*record_dep)(void *self, uint32_t node, artsGuid_t db, artsGuid_t edt, uint32_t slot,
                     uint32_t mode);
  /* kind: ARTS_NULL, ARTS_SINGLE_VALUE (value = the value) or a datablock type (value = db) */
  void (*signal)(void *self, uint32_t node, artsGuid_t edt, uint32_t slot, uint32_t kind,
                 uint64_t value);
  void (*put)(void *self, uint32_t node, artsGuid_t epoch, artsGuid_t db, uint32_t offset,
              const void *src, uint32_t bytes);
  void (*create_db)(void *self, uint32_t node, artsGuid_t db, uint64_t bytes);
  void (*destroy_db)(void *self, uint32_t node, artsGuid_t db);
  /* A task or put counted in `epoch` (homed on `node`) finished here. */
  void (*epoch_done)(void *self, uint32_t node, artsGuid_t epoch);
  void (*shutdown)(void *self);
} rt_transport;

#endif /* CARTS_RT_TRANSPORT_H */
