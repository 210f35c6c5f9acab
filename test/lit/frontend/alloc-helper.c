// RUN: carts cgeist %s -S | FileCheck %s

#include <stdlib.h>

// A helper returning a pointer table returns the memref; its callers receive it
// from func.call (canonicalize-memrefs inlines such helpers).

// CHECK-LABEL: func.func private @alloc_3d(
// CHECK-SAME: -> memref<?xmemref<?xmemref<?xf32>>>
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?xmemref<?xmemref<?xf32>>>
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[B:.*]] = memref.alloc(%{{.*}}) : memref<?xmemref<?xf32>>
// CHECK:   memref.store %[[B]], %[[A]][%[[I]]] : memref<?xmemref<?xmemref<?xf32>>>
// CHECK:   scf.for %[[J:.*]] =
// CHECK:     %[[ROW:.*]] = memref.load %[[A]][%[[I]]] : memref<?xmemref<?xmemref<?xf32>>>
// CHECK:     %[[C:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:     memref.store %[[C]], %[[ROW]][%[[J]]] : memref<?xmemref<?xf32>>
// CHECK: return %[[A]]
static float ***alloc_3d(int d0, int d1, int d2) {
  float ***a = (float ***)malloc(d0 * sizeof(float **));
  for (int i = 0; i < d0; i++) {
    a[i] = (float **)malloc(d1 * sizeof(float *));
    for (int j = 0; j < d1; j++)
      a[i][j] = (float *)malloc(d2 * sizeof(float));
  }
  return a;
}

// CHECK-LABEL: func.func private @free_3d(
// CHECK: memref.dealloc %{{.*}} : memref<?xf32>
// CHECK: memref.dealloc %{{.*}} : memref<?xmemref<?xf32>>
// CHECK: memref.dealloc %arg0 : memref<?xmemref<?xmemref<?xf32>>>
static void free_3d(float ***a, int d0, int d1) {
  for (int i = 0; i < d0; i++) {
    for (int j = 0; j < d1; j++)
      free(a[i][j]);
    free(a[i]);
  }
  free(a);
}

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
