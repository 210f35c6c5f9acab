/*
 * carts_config.h: the machine a driver resolved, handed to the runtime (libcartsrt).
 *
 * `carts execute` and the node actors resolve the worker count once, from their flags, the
 * environment and arts.cfg (carts_mlir.config), and hand it over here before the program
 * starts, instead of through the environment. A standalone executable calls nothing here:
 * its runtime reads arts.cfg and the environment itself, with the same bounds.
 */
#ifndef CARTS_CONFIG_H
#define CARTS_CONFIG_H

#include "arts.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bounds every source of the configuration checks: arts.cfg and the environment here,
   carts_mlir.config in Python (CMake writes them into carts_mlir/_bounds.py from these
   lines). */
#define CARTS_MAX_THREADS 4096u
#define CARTS_MAX_NODES 256u

/* Workers per node of every runtime started from now on (artsRT), ahead of arts.cfg and the
   environment; 0 hands the choice back to them. Returns 0, or -1 (and changes nothing) above
   CARTS_MAX_THREADS. */
ARTS_API int cartsSetThreads(uint32_t threads);

#ifdef __cplusplus
}
#endif

#endif /* CARTS_CONFIG_H */
