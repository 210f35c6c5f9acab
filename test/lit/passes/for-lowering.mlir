// arts-for-lowering + arts-db-partitioning with nodeCount=2 and 2 threads per node: chunk
// tasks are routed by route(b) = floor(b / ceil(chunks / 4)) % 2, the written array is split
// into blocks of the chunk size (so block b and chunk b coincide) and, when its block count
// and block size are constants, marked distributed with the same rule for its owners; the
// transposed read stays coarse and whole.
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-for-lowering,arts-db-partitioning,canonicalize,cse)' | FileCheck %s
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-for-lowering,arts-db-partitioning)' --debug-only=for_lowering,db_partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// Read-only and never indexed by the chunk: stays one block.
// CHECK: %[[GA:.*]], %[[PA:.*]] = arts.db_alloc <in> <read> <coarse>
// Block size B = max(ceil(n / 4), 1) rows; blocks = ceil(n / B).
// CHECK: %[[BDIV:.*]] = arith.ceildivui %[[N]], %[[C4]] : index
// CHECK: %[[B:.*]] = arith.maxsi %[[BDIV]], %{{.*}} : index
// CHECK: %[[NBDIV:.*]] = arith.ceildivui %[[N]], %[[B]] : index
// CHECK: %[[NB:.*]] = arith.maxsi %[[NBDIV]]
// Rows known only at run time: initPerNode could not reserve the blocks, so not distributed.
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[NB]]] elementSizes[%[[B]], %[[M]]] : memref<?xi64>, memref<?xmemref<?x?xf32>>
// Chunks of the static share: chunk = max(ceil(n / 4), 1), chunks = ceil(n / chunk).
// CHECK: %[[SPAN:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK-NEXT: %[[CS0:.*]] = arith.ceildivui %[[SPAN]], %[[C4]] : index
// CHECK-NEXT: %[[CS:.*]] = arith.maxsi %[[CS0]], %{{.*}} : index
// CHECK-NEXT: %[[CHUNKS:.*]] = arith.ceildivui %[[SPAN]], %[[CS]] : index
// CHECK-NEXT: arts.epoch {
// CHECK: scf.for %[[BIDX:.*]] = %{{.*}} to %[[CHUNKS]] step
// The shared routing rule: node = w mod 2 of worker w = floor(b / ceil(chunks / 4)); the
// route also asks for worker floor(w / 2) of that node: node + 2 * (1 + floor(w / 2)).
// CHECK: %[[PERW:.*]] = arith.ceildivui %[[CHUNKS]], %[[C4]] : index
// CHECK: %[[PERW1:.*]] = arith.maxui %[[PERW]]
// CHECK: %[[W:.*]] = arith.divui %[[BIDX]], %[[PERW1]] : index
// CHECK: %[[RT:.*]] = arith.remui %[[W]], %[[C2]] : index
// CHECK: %[[LOCAL:.*]] = arith.divui %[[W]], %[[C2]] : index
// CHECK: %[[LOCAL1:.*]] = arith.addi %[[LOCAL]], %{{.*}} : index
// CHECK: %[[ASK:.*]] = arith.muli %[[LOCAL1]], %[[C2]] : index
// CHECK: %[[SUM:.*]] = arith.addi %[[RT]], %[[ASK]] : index
// CHECK: %[[ROUTE:.*]] = arith.index_cast %[[SUM]] : index to i32
// CHECK: arts.db_acquire <in> (%[[GA]], %[[PA]] : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
// CHECK: arts.db_acquire <out> (%[[GB]], %[[PB]] : memref<?xi64>, memref<?xmemref<?x?xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.edt <task> <internode> route(%[[ROUTE]])
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arith.divui %[[I]], %[[B]] : index
// CHECK: arith.remui %[[I]], %[[B]] : index
// CHECK: } {arts.chunk_loop}
// CHECK-NOT: arts.edt <parallel>
// CHECK-NOT: arts.for
// CHECK-NOT: arts.barrier

// 10 x 16 rows known at compile time: blocks of B = ceil(10 / 4) = 3 rows, 4 blocks, each a
// constant; the table is distributed with the owner rule of the module's machine.
// CHECK-LABEL: func.func @static_rows
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4S:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[C4S]]] elementSizes[%[[C3]], %[[C16]]] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed} : memref<?xi64>, memref<?xmemref<?x16xf32>>
// CHECK: arts.edt <task> <internode>

// DEBUG: [for_lowering] {{.*}}for-lowering.mlir:[[#]]:5: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=4 (2 per node x 2 nodes) route(b) = floor(b / ceil(chunks / 4)) % 2 internode reductions=0
// DEBUG: [db_partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=coarse (no task access is indexed by its chunk)
// DEBUG: [db_partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x?xf32> distributed=no (the row count is not a compile-time constant, and initPerNode reserves the blocks before mainBody runs)
// DEBUG: [db_partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// DEBUG: [db_partitioning] {{.*}}: alloc memref<10x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=yes owner route(b) = floor(b / chunksPerWorker) % 2
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @rows(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  arts.edt <parallel> <internode> route(%r) (%qa, %qb : memref<?xmemref<?x?xf32>>, memref<?xmemref<?x?xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%va: memref<?xmemref<?x?xf32>>, %vb: memref<?xmemref<?x?xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %m step %c1 {
        %v = memref.load %a[%j, %i] : memref<?x?xf32>
        memref.store %v, %b[%i, %j] : memref<?x?xf32>
      }
    }
    arts.barrier
    arts.db_release(%va : memref<?xmemref<?x?xf32>>)
    arts.db_release(%vb : memref<?xmemref<?x?xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  return
}

func.func @static_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c10, %c16] : memref<?xi64>, memref<?xmemref<10x16xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<10x16xf32>>) : memref<?xi64>, memref<?xmemref<10x16xf32>>
  arts.edt <parallel> <internode> route(%r) (%q : memref<?xmemref<10x16xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<10x16xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<10x16xf32>> -> memref<10x16xf32>
    arts.for (%c0) to (%c10) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c16 step %c1 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        memref.store %f, %b[%i, %j] : memref<10x16xf32>
      }
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<10x16xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<10x16xf32>>)
  return
}
}
