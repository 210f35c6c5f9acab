// Every ARTS op prints and re-parses, in the custom and in the generic form.
// RUN: carts-opt %s | carts-opt | FileCheck %s
// RUN: carts-opt %s --mlir-print-op-generic | carts-opt | FileCheck %s

// CHECK-LABEL: func.func @high_level
func.func @high_level(%n: index, %src: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  // CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc <inout> <write> <coarse> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}, %{{.*}}] address(%{{.*}} : memref<?x?xf32>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n, %n] address(%src : memref<?x?xf32>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  // CHECK: %[[AG:.*]], %[[AP:.*]] = arts.db_acquire <inout> (%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?x?xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<coarse>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %ag, %ap = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<?x?xf32>>) offsets[%c0] sizes[%c1] partition(<coarse>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  // CHECK: arts.db_acquire <in> ({{.*}}) indices[%{{.*}}] {full_range}
  %ig, %ip = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?x?xf32>>) indices[%c0] {full_range} : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %acc = memref.alloca() : memref<f32>
  // CHECK: %{{.*}} = arts.epoch {
  %e = arts.epoch {
    // CHECK: arts.edt <parallel> <internode> route(%{{.*}}) (%[[AP]] : memref<?xmemref<?x?xf32>>) attributes {nowait, workers = 4 : i64} {
    // CHECK-NEXT: ^bb0(%[[V:.*]]: memref<?xmemref<?x?xf32>>):
    arts.edt <parallel> <internode> route(%r) (%ap : memref<?xmemref<?x?xf32>>) attributes {workers = 4, nowait} {
    ^bb0(%v: memref<?xmemref<?x?xf32>>):
      // CHECK: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<dynamic>, %{{.*}}) reduction([#arts.reduction<add>] %{{.*}} : memref<f32>) {
      arts.for (%c0) to (%n) step (%c1) schedule(<dynamic>, %c1) reduction([#arts.reduction<add>] %acc : memref<f32>) {
      ^bb0(%i: index):
        // CHECK: %[[B:.*]] = arts.db_ref %[[V]][%{{.*}}] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
        %b = arts.db_ref %v[%c0] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
        %x = memref.load %b[%i, %i] : memref<?x?xf32>
        // CHECK: arts.atomic_add %{{.*}}, %{{.*}}[] : memref<f32>
        arts.atomic_add %x, %acc[] : memref<f32>
        // CHECK: arts.depend <inout> %{{.*}} : memref<f32>
        arts.depend <inout> %acc : memref<f32>
        // CHECK: arts.critical "critical_lo" {
        // CHECK-NEXT: memref.store
        // CHECK-NEXT: }
        arts.critical "critical_lo" {
          memref.store %x, %acc[] : memref<f32>
        }
      }
      // CHECK: arts.barrier
      arts.barrier
      // CHECK: arts.runtime_query <current_worker> : i32
      %w = arts.runtime_query <current_worker> : i32
      // CHECK: arts.db_release(%[[V]] : memref<?xmemref<?x?xf32>>)
      arts.db_release(%v : memref<?xmemref<?x?xf32>>)
    }
    // The implicit terminator is elided when printed.
    // CHECK: arts.edt <single> <intranode> route(%{{.*}}) {
    // CHECK-NEXT: arts.runtime_query <total_nodes> : i32
    // CHECK-NEXT: }
    arts.edt <single> <intranode> route(%r) {
      %t = arts.runtime_query <total_nodes> : i32
      arts.yield
    }
    // CHECK: arts.edt <sync> <intranode> route(%{{.*}}) (%{{.*}} : memref<?x?xf32>) attributes {no_verify}
    arts.edt <sync> <intranode> route(%r) (%src : memref<?x?xf32>) attributes {no_verify} {
    ^bb0(%s: memref<?x?xf32>):
    }
  }
  // CHECK: arts.db_free(%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  return
}

// CHECK-LABEL: func.func @distributed_block_table
func.func @distributed_block_table(%blocks: index, %bs: index) {
  %r = arith.constant 1 : i32
  // CHECK: arts.db_alloc <in> <read> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}] {distributed} : memref<?xi64>, memref<?xmemref<?xf64>>
  %g, %p = arts.db_alloc <in> <read> <block> route(%r) sizes[%blocks] elementSizes[%bs] {distributed} : memref<?xi64>, memref<?xmemref<?xf64>>
  // CHECK: arts.db_sync <flush> (%{{.*}}, %{{.*}} : memref<?xi64>, memref<?xmemref<?xf64>>)
  arts.db_sync <flush> (%g, %p : memref<?xi64>, memref<?xmemref<?xf64>>)
  // CHECK: arts.db_sync <fetch> (%{{.*}}, %{{.*}} : memref<?xi64>, memref<?xmemref<?xf64>>)
  arts.db_sync <fetch> (%g, %p : memref<?xi64>, memref<?xmemref<?xf64>>)
  // A table on node 0 is flushed too (its blocks put onto themselves).
  // CHECK: arts.db_sync <flush> (%{{.*}}, %{{.*}} : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  %g1, %p1 = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%blocks] elementSizes[%bs, %bs] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  arts.db_sync <flush> (%g1, %p1 : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  // ... and shared (copies sent to the other nodes).
  // CHECK: arts.db_sync <share> (%{{.*}}, %{{.*}} : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  arts.db_sync <share> (%g1, %p1 : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  // CHECK: arts.db_alloc <out> <write> <fine_grained>
  %g2, %p2 = arts.db_alloc <out> <write> <fine_grained> route(%r) sizes[%blocks, %blocks] elementSizes[] : memref<?x?xi64>, memref<?x?xmemref<f32>>
  // CHECK: arts.db_alloc <inout> <write> <stencil>
  %g3, %p3 = arts.db_alloc <inout> <write> <stencil> route(%r) sizes[%blocks] elementSizes[%bs] : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// CHECK-LABEL: func.func @edt_body
func.func @edt_body(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  // CHECK: %{{.*}}:3 = arts.edt_param_unpack %{{.*}} : !llvm.ptr -> (i64, f32, index)
  %u:3 = arts.edt_param_unpack %paramv : !llvm.ptr -> (i64, f32, index)
  // CHECK: %{{.*}}, %{{.*}} = arts.dep_gep %{{.*}}[%{{.*}}] : !llvm.ptr -> !llvm.ptr
  %guid, %ptr = arts.dep_gep %depv[%c0] : !llvm.ptr -> !llvm.ptr
  return
}

// CHECK-LABEL: func.func @lowered
func.func @lowered(%x: i64, %y: f32, %guids: memref<?xi64>, %more: memref<?xi64>, %buf: memref<?xf32>) {
  %route = arith.constant 0 : i32
  %deps = arith.constant 2 : i32
  %slot = arith.constant 0 : i32
  %off = arith.constant 0 : i32
  %len = arith.constant 64 : i32
  %bytes = arith.constant 64 : i64
  // CHECK: %[[E:.*]] = arts.create_epoch
  %e = arts.create_epoch
  // CHECK: %[[PV:.*]] = arts.edt_param_pack(%{{.*}}, %{{.*}} : i64, f32) : memref<?xi64>
  %pv = arts.edt_param_pack(%x, %y : i64, f32) : memref<?xi64>
  // CHECK: arts.edt_param_pack() : memref<?xi64>
  %none = arts.edt_param_pack() : memref<?xi64>
  // CHECK: %[[T:.*]] = arts.edt_create @edt_body(%[[PV]] : memref<?xi64>) deps(%{{.*}}) route(%{{.*}}) epoch(%[[E]])
  %t = arts.edt_create @edt_body(%pv : memref<?xi64>) deps(%deps) route(%route) epoch(%e)
  // CHECK: arts.edt_create @edt_body(%{{.*}} : memref<?xi64>) deps(%{{.*}}) route(%{{.*}}){{$}}
  %t2 = arts.edt_create @edt_body(%none : memref<?xi64>) deps(%deps) route(%route)
  // CHECK: arts.rec_dep %[[T]] slot(%{{.*}}) (%{{.*}}, %{{.*}} : memref<?xi64>, memref<?xi64>) modes [#arts.mode<in>, #arts.mode<inout>]
  arts.rec_dep %t slot(%slot) (%guids, %more : memref<?xi64>, memref<?xi64>) modes [#arts.mode<in>, #arts.mode<inout>]
  // CHECK: %[[R:.*]] = arts.reserve_guid <write> route(%{{.*}})
  %r = arts.reserve_guid <write> route(%route)
  // CHECK: arts.db_create %[[R]], %{{.*}} {distributed} : !llvm.ptr
  %p = arts.db_create %r, %bytes {distributed} : !llvm.ptr
  // CHECK: arts.put_in_db_epoch %{{.*}}, epoch(%[[E]]), db(%[[R]]), offset(%{{.*}}), bytes(%{{.*}}) : memref<?xf32>
  arts.put_in_db_epoch %buf, epoch(%e), db(%r), offset(%off), bytes(%len) : memref<?xf32>
  // CHECK: arts.put_in_db_epoch %{{.*}} : !llvm.ptr
  arts.put_in_db_epoch %p, epoch(%e), db(%r), offset(%off), bytes(%len) : !llvm.ptr
  // CHECK: arts.get_from_db_epoch %{{.*}}, epoch(%[[E]]), db(%[[R]]), offset(%{{.*}}), bytes(%{{.*}}) : memref<?xf32>
  arts.get_from_db_epoch %buf, epoch(%e), db(%r), offset(%off), bytes(%len) : memref<?xf32>
  // CHECK: arts.get_from_db_epoch %{{.*}} : !llvm.ptr
  arts.get_from_db_epoch %p, epoch(%e), db(%r), offset(%off), bytes(%len) : !llvm.ptr
  // CHECK: arts.db_share %[[R]]
  arts.db_share %r
  // CHECK: arts.wait_on_epoch %[[E]]
  arts.wait_on_epoch %e
  return
}
