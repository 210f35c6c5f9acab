// RUN: carts cgeist %s -S -I %S/Inputs | FileCheck %s --check-prefix=DEFAULT
// RUN: carts cgeist %s -S -I %S/Inputs -DN=100 | FileCheck %s --check-prefix=OVERRIDE
// RUN: carts cgeist %s -S -I %S/Inputs -D N=7 -DUSE_SQUARE | FileCheck %s --check-prefix=SQUARE

// Local includes (-I), #ifndef size defaults overridden by -D, function-like macros,
// and a helper function defined in the header (emitted because it is called).
#include "sizes.h"

// DEFAULT-LABEL: func.func @total(
// DEFAULT: %[[C16:.*]] = arith.constant 16 : index
// DEFAULT: scf.for %{{.*}} = %{{.*}} to %[[C16]]
// DEFAULT: call @scale(
// OVERRIDE-LABEL: func.func @total(
// OVERRIDE: arith.constant 100 : index
// SQUARE-LABEL: func.func @total(
// SQUARE: arith.constant 49 : index
// DEFAULT-LABEL: func.func private @scale(
// DEFAULT: arith.mulf
float total(float *a) {
  float t = 0.0f;
#ifdef USE_SQUARE
  for (int i = 0; i < SQUARE(N); i++)
#else
  for (int i = 0; i < N; i++)
#endif
    t += scale(a[i]);
  return t;
}
