/*
 * carts_trace.h: names for the task functions of a JIT-compiled program (libcartsrt).
 *
 * With trace=FILE the runtime writes one CSV row per task it ran, naming the task function
 * by its symbol. A native executable linked with -rdynamic exports its symbols; code a JIT
 * placed in memory has none, so the host registers each function's name here before the run
 * (later registrations of one address replace earlier ones).
 */
#ifndef CARTS_TRACE_H
#define CARTS_TRACE_H

#include "arts.h"

#ifdef __cplusplus
extern "C" {
#endif

ARTS_API void cartsTraceName(const void *fn, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CARTS_TRACE_H */
