// arts-for-lowering + arts-db-partitioning: on one node of 12 workers or more, a static loop
// whose share per worker weighs at least `balance-ops` operations is cut into 8 chunks per
// worker, chunk b routed to worker floor(b / 8), so a worker that finishes its own chunks
// early can take the last ones of a slower worker. The chunk loop says so
// (arts.chunks_per_worker = 8), and db-partitioning makes one block per chunk. A lighter loop
// over the same array keeps one chunk per worker: each of its chunks is eight whole blocks,
// which no other chunk shares, so it keeps `inout`.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-for-lowering{min-chunk-ops=0 balance-ops=2048},arts-db-partitioning,canonicalize,cse)' | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-for-lowering{min-chunk-ops=0 balance-ops=2048},arts-db-partitioning)' --debug-only=for-lowering,db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-for-lowering{min-chunk-ops=0 balance-ops=0},arts-db-partitioning)' --debug-only=for-lowering,db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-for-lowering{min-chunk-ops=0 balance-ops=5000},arts-db-partitioning)' --debug-only=for-lowering,db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=LIGHT

// The heavy loop: 16 rows a worker of about 258 operations (4128 a worker, at least 2048),
// 128 chunks of 2 rows.
// CHECK-LABEL: func.func @balanced
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[C128]]] elementSizes[%[[C2]], %[[C64]]]
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for %[[B:.*]] = %{{.*}} to %[[C128]] step
// CHECK-NEXT: %[[LO:.*]] = arith.muli %[[B]], %[[C2]] : index
// CHECK: %[[W:.*]] = arith.divui %[[B]], %[[C8]] : index
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[W]], %{{.*}} : index
// CHECK-NEXT: %[[ROUTE:.*]] = arith.index_cast %[[R1]] : index to i32
// CHECK: arts.db_acquire <inout> (%[[G]], %[[P]] : {{.*}}) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK-NEXT: arts.edt <task> <intranode> route(%[[ROUTE]])
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 2 : i64, arts.chunk_static_share, arts.chunk_trips = 256 : i64, arts.chunks_per_worker = 8 : i64}
// The light loop: 16 chunks of 16 rows, each the blocks 8k .. 8k+7.
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[C16]] step
// CHECK: arts.db_acquire <inout> (%[[G]], %[[P]] : {{.*}}) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 8 : i64, arts.chunk_static_share, arts.chunk_trips = 256 : i64}

// DEBUG: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share in 8 chunks per worker (about 4128 operations a worker): ceil(trips/(8*workers)) workers=16
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=16
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<256x64xf32> -> partition=block blocks=ceil(rows / 128) block=memref<?x64xf32> distributed=no
// DEBUG-NOT: concurrent
// DEBUG: acquire mode=inout partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NOT: concurrent
// DEBUG: acquire mode=inout partition=block blocks of its chunk (offsets 0..0)

// balance-ops=0: one chunk per worker, one block per worker.
// OFF: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=16
// OFF: alloc memref<256x64xf32> -> partition=block blocks=ceil(rows / 16)

// A worker's share of 4128 operations is under 5000: one chunk per worker.
// LIGHT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=16
// LIGHT: alloc memref<256x64xf32> -> partition=block blocks=ceil(rows / 16)
module attributes {arts.nodes = 1 : i64, arts.threads = 16 : i64} {
func.func @balanced() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c256, %c64] : memref<?xi64>, memref<?xmemref<256x64xf32>>
  %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<256x64xf32>>) : memref<?xi64>, memref<?xmemref<256x64xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<256x64xf32>>) attributes {workers = 16 : i64} {
  ^bb0(%v: memref<?xmemref<256x64xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<256x64xf32>> -> memref<256x64xf32>
    arts.for (%c0) to (%c256) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c64 step %c1 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        memref.store %f, %b[%i, %j] : memref<256x64xf32>
      }
    }
    arts.barrier
    arts.for (%c0) to (%c256) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %x = arith.index_cast %i : index to i32
      %f = arith.sitofp %x : i32 to f32
      memref.store %f, %b[%i, %c0] : memref<256x64xf32>
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<256x64xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<256x64xf32>>)
  return
}
}

// -----

// Two nodes: the chunks follow the blocks' owners, one per worker, however heavy the loop.
// DEBUG: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=32 (16 per node x 2 nodes)
// DEBUG: alloc memref<256x64xf32> -> partition=block blocks=ceil(rows / 32)
module attributes {arts.nodes = 2 : i64, arts.threads = 16 : i64} {
func.func @two_nodes() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c256, %c64] : memref<?xi64>, memref<?xmemref<256x64xf32>>
  %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<256x64xf32>>) : memref<?xi64>, memref<?xmemref<256x64xf32>>
  arts.edt <parallel> <internode> route(%r) (%q : memref<?xmemref<256x64xf32>>) attributes {workers = 32 : i64} {
  ^bb0(%v: memref<?xmemref<256x64xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<256x64xf32>> -> memref<256x64xf32>
    arts.for (%c0) to (%c256) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c64 step %c1 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        memref.store %f, %b[%i, %j] : memref<256x64xf32>
      }
    }
    arts.barrier
    arts.for (%c0) to (%c256) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %x = arith.index_cast %i : index to i32
      %f = arith.sitofp %x : i32 to f32
      memref.store %f, %b[%i, %c0] : memref<256x64xf32>
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<256x64xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<256x64xf32>>)
  return
}
}

// -----

// Eight workers: one chunk per worker, although a worker's share (32 rows, about 8256
// operations) weighs more than `balance-ops`.
// DEBUG: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=8 (8 per node x 1 nodes)
// DEBUG: alloc memref<256x64xf32> -> partition=block blocks=ceil(rows / 8)
module attributes {arts.nodes = 1 : i64, arts.threads = 8 : i64} {
func.func @eight_workers() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c256, %c64] : memref<?xi64>, memref<?xmemref<256x64xf32>>
  %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<256x64xf32>>) : memref<?xi64>, memref<?xmemref<256x64xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<256x64xf32>>) attributes {workers = 8 : i64} {
  ^bb0(%v: memref<?xmemref<256x64xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<256x64xf32>> -> memref<256x64xf32>
    arts.for (%c0) to (%c256) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c64 step %c1 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        memref.store %f, %b[%i, %j] : memref<256x64xf32>
      }
    }
    arts.barrier
    arts.for (%c0) to (%c256) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %x = arith.index_cast %i : index to i32
      %f = arith.sitofp %x : i32 to f32
      memref.store %f, %b[%i, %c0] : memref<256x64xf32>
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<256x64xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<256x64xf32>>)
  return
}
}

// -----

// Rows of 32 KiB: a worker's 64 rows are a 2 MiB block, which the runtime maps with huge
// pages; cut in 8, its blocks of 8 rows would not be, so neither loop is cut.
// DEBUG: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), not cut in 8: blocks of 64 rows of 32768 bytes have huge pages, blocks of 8 rows would not workers=16
// DEBUG: alloc memref<1024x8192xf32> -> partition=block blocks=ceil(rows / 16)
module attributes {arts.nodes = 1 : i64, arts.threads = 16 : i64} {
func.func @huge_pages() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %c8192 = arith.constant 8192 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c1024, %c8192] : memref<?xi64>, memref<?xmemref<1024x8192xf32>>
  %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<1024x8192xf32>>) : memref<?xi64>, memref<?xmemref<1024x8192xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<1024x8192xf32>>) attributes {workers = 16 : i64} {
  ^bb0(%v: memref<?xmemref<1024x8192xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<1024x8192xf32>> -> memref<1024x8192xf32>
    arts.for (%c0) to (%c1024) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c8192 step %c1 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        memref.store %f, %b[%i, %j] : memref<1024x8192xf32>
      }
    }
    arts.barrier
    arts.for (%c0) to (%c1024) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %x = arith.index_cast %i : index to i32
      %f = arith.sitofp %x : i32 to f32
      memref.store %f, %b[%i, %c0] : memref<1024x8192xf32>
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<1024x8192xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<1024x8192xf32>>)
  return
}
}
