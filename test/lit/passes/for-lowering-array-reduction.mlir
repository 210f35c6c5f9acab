// A reduction into a small 1-D array (an array-section reduction, `reduction(+: h[:2])`)
// keeps a partial per element: each chunk's private copy starts at the identity in every
// element and leaves its elements in slots chunk * 2 + e of the partials table, combined
// element by element after the epoch.
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-for-lowering,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: func.func @hist
// The floor's chunk (13108 iterations), evened out over as many chunks.
// CHECK: %[[FLOOR:.*]] = arith.maxsi %{{.*}}, %c13108 : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.ceildivui %[[TRIPS:.*]], %[[FLOOR]] : index
// CHECK-NEXT: %[[COUNT1:.*]] = arith.maxsi %[[COUNT]], %c1 : index
// CHECK-NEXT: %[[EVEN:.*]] = arith.ceildivui %[[TRIPS]], %[[COUNT1]] : index
// CHECK-NEXT: %[[PER:.*]] = arith.maxsi %[[EVEN]], %c1 : index
// CHECK-NEXT: %[[CHUNKS:.*]] = arith.ceildivui %{{.*}}, %[[PER]] : index
// CHECK-NEXT: %[[H:.*]] = arts.db_ref %{{.*}}[%c0] : memref<?xmemref<2xi32>> -> memref<2xi32>
// CHECK: %[[SLOTS:.*]] = arith.muli %[[CHUNKS]], %c2 : index
// CHECK: %{{.*}}, %[[PP:.*]] = arts.db_alloc <inout> <write> <coarse> route(%{{.*}}) sizes[%c1] elementSizes[%[[SLOTS]]] : memref<?xi64>, memref<?xmemref<?xi32>>
// CHECK: scf.for %[[CHUNK:.*]] = %c0 to %[[CHUNKS]] step %c1 {
// CHECK: %[[PRIV:.*]] = memref.alloca() : memref<2xi32>
// CHECK-NEXT: memref.store %c0_i32, %[[PRIV]][%c0] : memref<2xi32>
// CHECK-NEXT: memref.store %c0_i32, %[[PRIV]][%c1] : memref<2xi32>
// CHECK: %[[FIRST:.*]] = arith.muli %[[CHUNK]], %c2 : index
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[FIRST]]] : memref<?xi32>
// CHECK: %[[SECOND:.*]] = arith.addi %[[FIRST]], %c1 : index
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[SECOND]]] : memref<?xi32>
// After the epoch: element 0, then element 1, of every chunk's partials.
// CHECK: scf.for %[[K:.*]] = %c0 to %[[CHUNKS]] step %c1 {
// CHECK: memref.load %[[H]][%c0] : memref<2xi32>
// CHECK: memref.store %{{.*}}, %[[H]][%c0] : memref<2xi32>
// CHECK: memref.load %[[H]][%c1] : memref<2xi32>
// CHECK: memref.store %{{.*}}, %[[H]][%c1] : memref<2xi32>
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
  func.func @hist(%n: index, %a: memref<?xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %r = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c2] : memref<?xi64>, memref<?xmemref<2xi32>>
    %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<2xi32>>) : memref<?xi64>, memref<?xmemref<2xi32>>
    arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<2xi32>>) attributes {workers = 2 : i64} {
    ^bb0(%v: memref<?xmemref<2xi32>>):
      %h = arts.db_ref %v[%c0] : memref<?xmemref<2xi32>> -> memref<2xi32>
      arts.for (%c0) to (%n) step (%c1) schedule(<static>) reduction([#arts.reduction<add>] %h : memref<2xi32>) {
      ^bb0(%i: index):
        %k = arith.remui %i, %c1 : index
        %x = memref.load %h[%k] : memref<2xi32>
        %y = arith.addi %x, %one : i32
        memref.store %y, %h[%k] : memref<2xi32>
      }
      arts.barrier
      arts.db_release(%v : memref<?xmemref<2xi32>>)
    }
    arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<2xi32>>)
    return
  }
}
