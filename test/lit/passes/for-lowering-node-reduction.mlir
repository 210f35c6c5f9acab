// A reduction loop spread over two nodes keeps a partial per node. Each chunk leaves its
// partial in its slot of its own node's block (a table placed by an owner rule, block k on
// node k, acquired `concurrent` by the chunks routed there); after the chunk launch, in the
// same epoch, a task on each node reads that block once its chunks are done (`in`), combines
// the slots of the chunks routed there in slot order and writes the node's partial into the
// host's table of one slot per node; after the epoch the host combines the nodes' slots.
// db-lowering creates each block of a placed table on its node (`on_owner`).
// RUN: split-file %s %t
// RUN: carts-opt %t/loop.mlir --pass-pipeline='builtin.module(arts-for-lowering,canonicalize,cse)' | FileCheck %s
// RUN: carts-opt %t/placed.mlir --pass-pipeline='builtin.module(arts-db-lowering,canonicalize,cse)' | FileCheck %s --check-prefix=PLACED

//--- loop.mlir
// CHECK-LABEL: func.func @dot
// CHECK: %[[NG:.*]], %[[NP:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%c2] elementSizes[%c4] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}}
// CHECK: %[[HG:.*]], %[[HP:.*]] = arts.db_alloc <inout> <write> <coarse> route(%{{.*}}) sizes[%c1] elementSizes[%c2]
// CHECK: arts.epoch {
// CHECK: scf.for %[[CHUNK:.*]] = %c0 to %c4 step %c1 {
// CHECK: %[[NODE:.*]] = arith.remui %[[CHUNK]], %c2 : index
// CHECK: arts.db_acquire <concurrent> (%[[NG]], %[[NP]] : {{.*}}) offsets[%[[NODE]]] sizes[%c1]
// CHECK: arts.edt <task> <internode>
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[CHUNK]]] : memref<?xf64>
// CHECK: } {arts.chunk_ops = {{.*}}, arts.launch_loop}
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT: %{{.*}}, %[[MINE:.*]] = arts.db_acquire <in> (%[[NG]], %[[NP]] : {{.*}}) offsets[%[[K]]] sizes[%c1]
// CHECK-NEXT: %{{.*}}, %[[HOME:.*]] = arts.db_acquire <concurrent> (%[[HG]], %[[HP]] : {{.*}}) :
// CHECK-NEXT: %[[ROUTE:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK-NEXT: arts.edt <task> <internode> route(%[[ROUTE]]) (%[[MINE]], %[[HOME]] : {{.*}}) {
// CHECK: scf.for %[[SLOT:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT: %[[OF:.*]] = arith.remui %[[SLOT]], %c2 : index
// CHECK-NEXT: %[[HERE:.*]] = arith.cmpi eq, %[[OF]], %[[K]] : index
// CHECK-NEXT: scf.if %[[HERE]] {
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[K]]] : memref<?xf64>
// After the epoch: one slot per node.
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK: arith.addf
// CHECK: arts.db_free(%[[HG]], %[[HP]]
// CHECK-NEXT: arts.db_free(%[[NG]], %[[NP]]
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
  func.func @dot(%a: memref<?xf64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 4096 : index
    %r = arith.constant 0 : i32
    %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[] : memref<?xi64>, memref<?xmemref<f64>>
    %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<f64>>) : memref<?xi64>, memref<?xmemref<f64>>
    arts.edt <parallel> <internode> route(%r) (%q : memref<?xmemref<f64>>) attributes {workers = 4 : i64} {
    ^bb0(%v: memref<?xmemref<f64>>):
      %s = arts.db_ref %v[%c0] : memref<?xmemref<f64>> -> memref<f64>
      arts.for (%c0) to (%n) step (%c1) schedule(<static>) reduction([#arts.reduction<add>] %s : memref<f64>) {
      ^bb0(%i: index):
        %x = memref.load %s[] : memref<f64>
        %i64 = arith.index_cast %i : index to i64
        %f = arith.sitofp %i64 : i64 to f64
        %y = arith.addf %x, %f : f64
        memref.store %y, %s[] : memref<f64>
      }
      arts.barrier
      arts.db_release(%v : memref<?xmemref<f64>>)
    }
    arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<f64>>)
    return
  }
}

//--- placed.mlir
// PLACED-LABEL: func.func @placed
// PLACED: scf.for %[[B:.*]] = %c0 to %c2 step %c1 {
// PLACED-NEXT: %[[NODE:.*]] = arith.remui %[[B]], %c2 : index
// PLACED-NEXT: %[[ROUTE:.*]] = arith.index_cast %[[NODE]] : index to i32
// PLACED-NEXT: %[[GUID:.*]] = arts.reserve_guid <write> route(%[[ROUTE]])
// PLACED-NEXT: arts.db_create %[[GUID]], %c32_i64 {on_owner} : !llvm.ptr
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
  func.func @placed() {
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %r = arith.constant 0 : i32
    %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c4] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}} : memref<?xi64>, memref<?xmemref<?xf64>>
    arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf64>>)
    return
  }
}
