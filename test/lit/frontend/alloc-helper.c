// RUN: carts cgeist %s -S -I %examples/include | FileCheck %s

// A helper returning a pointer table returns the memref; its callers receive it
// from func.call (canonicalize-memrefs inlines such helpers). The helpers are the
// examples' cube_tables.h, whose functions are emitted after the file's own.
#define DATA_TYPE float
#include "cube_tables.h"

// CHECK-LABEL: func.func @main()
// CHECK: %[[X:.*]] = call @alloc_3d(%{{.*}}, %{{.*}}, %{{.*}}) : (i32, i32, i32) -> memref<?xmemref<?xmemref<?xf32>>>
// CHECK: memref.load %[[X]]
// CHECK: call @free_3d(%[[X]], %{{.*}}, %{{.*}}) : (memref<?xmemref<?xmemref<?xf32>>>, i32, i32) -> ()
int main(void) {
  float ***x = alloc_3d(2, 3, 4);
  x[1][2][3] = 1.0f;
  free_3d(x, 2, 3);
  return 0;
}

// CHECK-LABEL: func.func private @alloc_3d(
// CHECK-SAME: -> memref<?xmemref<?xmemref<?xf32>>>
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?xmemref<?xmemref<?xf32>>>
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[B:.*]] = memref.alloc(%{{.*}}) : memref<?xmemref<?xf32>>
// CHECK:   memref.store %[[B]], %[[A]][%[[I]]] : memref<?xmemref<?xmemref<?xf32>>>
// CHECK:   scf.for %[[J:.*]] =
// CHECK:     %[[ROW:.*]] = memref.load %[[A]][%[[I]]] : memref<?xmemref<?xmemref<?xf32>>>
// CHECK:     %[[C:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK:     memref.store %[[C]], %[[ROW]][%[[J]]] : memref<?xmemref<?xf32>>
// CHECK: return %[[A]]

// CHECK-LABEL: func.func private @free_3d(
// CHECK: memref.dealloc %{{.*}} : memref<?xf32>
// CHECK: memref.dealloc %{{.*}} : memref<?xmemref<?xf32>>
// CHECK: memref.dealloc %arg0 : memref<?xmemref<?xmemref<?xf32>>>
