/* Local header for include_local.c: a macro, a typedef, a global constant
 * and a static function defined in a header. */
#ifndef CORPUS_LOCAL_H
#define CORPUS_LOCAL_H

#define LOCAL_N 8
typedef double local_real;

static const int local_offset = 100;

static local_real local_poly(local_real x) { return 3.0 * x * x + 2.0 * x + 1.0; }

#endif
