// arts-for-lowering + arts-db-partitioning: a static loop becomes one task per chunk of its
// static share ceil(trips / workers). Within one node (a module of one node, or an
// `<intranode>` parallel task of a multi-node module) the chunks are raised to at least
// ceil(4096 / weight) iterations when one iteration is only `weight` operations, so that no
// chunk costs less than creating its task. A loop spread over several nodes keeps its static
// share whatever its weight: chunk k is then routed to the node that owns block k of the
// arrays it writes. The chunk loop records where the chunks start (arts.chunk_origin), how
// many rows they cover (arts.chunk_trips, when constant) and whether they are still the static
// share (arts.chunk_static_share); only when all three make chunk k exactly block k does a
// chunk task write its blocks as `out` on one node, otherwise neighbouring chunks share their
// boundary blocks as `concurrent`. A module over several nodes keeps `out` either way: a
// shared block would travel as copies merged byte by byte, which loses updates, so the
// owner's queue hands a boundary block to one chunk at a time. On one node a collapse(2)
// loop (its body a single `arts.collapsed` scf.for) with no requested chunk and no reduction
// chunks the product of both loops' iterations.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-for-lowering{min-chunk-ops=4096},arts-db-partitioning,canonicalize,cse)' | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-for-lowering{min-chunk-ops=4096},arts-db-partitioning)' --debug-only=for-lowering,db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// Two nodes of 2 threads, internode loops: chunk tasks are routed by
// route(b) = floor(b / ceil(chunks / 4)) % 2 and the written array is split into blocks of
// ceil(rows / 4) rows. No minimum chunk applies, however light the body. The transposed read
// is cut along its second dimension, the one the chunk indexes: a chunk reads its own columns.

// A light body (the j loop counts 64 trips when its bound is unknown: about 194 operations)
// over run-time rows: on one node it would get chunks of at least 22 rows; over nodes it keeps
// its static share. The row count is not a constant, so chunk k cannot be shown to be block k;
// over nodes the write keeps `out` all the same, and chunks that share a block take it in turn.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// Read-only, indexed by the chunk in its second dimension: blocks of max(ceil(m / 4), 1)
// columns.
// CHECK: %[[ADIV:.*]] = arith.ceildivui %[[M]], %[[C4]] : index
// CHECK: %[[AB:.*]] = arith.maxsi %[[ADIV]], %[[C1]] : index
// CHECK: %[[GA:.*]], %[[PA:.*]] = arts.db_alloc <in> <read> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%[[N]], %[[AB]]] : memref<?xi64>, memref<?xmemref<?x?xf32>>
// Block size B = max(ceil(n / 4), 1) rows; blocks = ceil(n / B).
// CHECK: %[[BDIV:.*]] = arith.ceildivui %[[N]], %[[C4]] : index
// CHECK: %[[B:.*]] = arith.maxsi %[[BDIV]], %[[C1]] : index
// CHECK: %[[NBDIV:.*]] = arith.ceildivui %[[N]], %[[B]] : index
// CHECK: %[[NB:.*]] = arith.maxsi %[[NBDIV]]
// Rows known only at run time: initPerNode could not reserve the blocks, so not distributed.
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[NB]]] elementSizes[%[[B]], %[[M]]] : memref<?xi64>, memref<?xmemref<?x?xf32>>
// chunk = max(ceil(n / 4), 1), the static share with no minimum; chunks = ceil(n / chunk).
// CHECK: %[[SPAN:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK-NEXT: %[[CS0:.*]] = arith.ceildivui %[[SPAN]], %[[C4]] : index
// CHECK-NEXT: %[[CS:.*]] = arith.maxsi %[[CS0]], %[[C1]] : index
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
// CHECK: arts.db_acquire <in> (%[[GA]], %[[PA]] : memref<?xi64>, memref<?xmemref<?x?xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.db_acquire <out> (%[[GB]], %[[PB]] : memref<?xi64>, memref<?xmemref<?x?xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.edt <task> <internode> route(%[[ROUTE]])
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arith.divui %[[I]], %[[B]] : index
// CHECK: arith.remui %[[I]], %[[B]] : index
// Still the static share, but with no constant trip count to compare with the blocks.
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share}
// CHECK-NOT: arts.edt <parallel>
// CHECK-NOT: arts.for
// CHECK-NOT: arts.barrier

// 10 x 16 rows known at compile time and a heavy body (about 8242 operations: no minimum
// applies anywhere): chunks of ceil(10 / 4) = 3 rows starting at row 0 are exactly the blocks
// of B = 3 rows, so each chunk task writes its own block as `out`; 4 blocks, each a constant,
// so the table is distributed with the owner rule of the module's machine.
// CHECK-LABEL: func.func @static_rows
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4S:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[C4S]]] elementSizes[%[[C3]], %[[C16]]] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed} : memref<?xi64>, memref<?xmemref<?x16xf32>>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C4S]] step
// CHECK-NEXT: %{{.*}} = arith.muli %[[K]], %[[C3]] : index
// CHECK: arts.db_acquire <out> (%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?x16xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.edt <task> <internode>
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 3 : i64, arts.chunk_static_share, arts.chunk_trips = 10 : i64}
// The launch loop records a chunk's weight (3 rows of about 8242 operations) for
// arts-launch-fanout.
// CHECK: } {arts.chunk_ops = 24726 : i64, arts.launch_loop}

// The same heavy body over run-time rows: the static share is kept, but without a constant
// trip count the write cannot be shown to be block-aligned; over nodes it keeps `out`.
// CHECK-LABEL: func.func @heavy_rows
// CHECK-SAME: (%[[HN:.*]]: index)
// CHECK-DAG: %[[HC1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[HC4:.*]] = arith.constant 4 : index
// CHECK: %[[HG:.*]], %[[HP:.*]] = arts.db_alloc <inout> <write> <block>
// CHECK: %[[HSPAN:.*]] = arith.maxsi %[[HN]], %{{.*}} : index
// CHECK-NEXT: %[[HCS0:.*]] = arith.ceildivui %[[HSPAN]], %[[HC4]] : index
// CHECK-NEXT: %[[HCS:.*]] = arith.maxsi %[[HCS0]], %[[HC1]] : index
// CHECK-NEXT: %{{.*}} = arith.ceildivui %[[HSPAN]], %[[HCS]] : index
// CHECK-NEXT: arts.epoch {
// CHECK: arts.db_acquire <out> (%[[HG]], %[[HP]] : memref<?xi64>, memref<?xmemref<?x16xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share}

// 10 rows of a light body (about 66 operations) over two nodes: one node would make it a
// single chunk of at least 63 rows (@small_rows below); here it keeps 4 chunks of
// ceil(10 / 4) = 3 rows, exactly the distributed blocks of 3 rows, and chunk k goes to node
// k mod 2, which owns block k, and writes it as `out`.
// CHECK-LABEL: func.func @small_rows_over_nodes
// CHECK-DAG: %[[OC1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[OC2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[OC3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[OC4:.*]] = arith.constant 4 : index
// CHECK: %[[OG:.*]], %[[OP:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[OC4]]] elementSizes[%[[OC3]], %{{.*}}] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// CHECK-NEXT: arts.epoch {
// CHECK-NEXT: scf.for %[[OK:.*]] = %{{.*}} to %[[OC4]] step %[[OC1]] {
// CHECK-NEXT: %{{.*}} = arith.muli %[[OK]], %[[OC3]] : index
// One chunk per worker: worker k, node k mod 2, worker floor(k / 2) of that node.
// CHECK: %[[ONODE:.*]] = arith.remui %[[OK]], %[[OC2]] : index
// CHECK-NEXT: %[[OLOCAL:.*]] = arith.divui %[[OK]], %[[OC2]] : index
// CHECK-NEXT: %[[OLOCAL1:.*]] = arith.addi %[[OLOCAL]], %[[OC1]] : index
// CHECK-NEXT: %[[OASK:.*]] = arith.muli %[[OLOCAL1]], %[[OC2]] : index
// CHECK-NEXT: %[[OSUM:.*]] = arith.addi %[[ONODE]], %[[OASK]] : index
// CHECK-NEXT: %[[OROUTE:.*]] = arith.index_cast %[[OSUM]] : index to i32
// CHECK: arts.db_acquire <out> (%[[OG]], %[[OP]] : memref<?xi64>, memref<?xmemref<?x16xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK-NEXT: arts.edt <task> <internode> route(%[[OROUTE]])
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 3 : i64, arts.chunk_static_share, arts.chunk_trips = 10 : i64}

// A heavy loop over the interior rows 1 .. 8 (as a stencil sweeps them) over nodes: it is cut
// as rows 0 .. 9 would be (lb + ub = 10 rows, ceil(10 / 4) = 3 a chunk), each chunk the loop's
// rows within its 3 (rows 1-2, 3-5, 6-8 and none): the chunks are the blocks of 3 rows from
// row 0, so no two chunks write one block, and each writes its own as `out`.
// CHECK-LABEL: func.func @interior_rows
// CHECK-DAG: %[[IC1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[IC3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[IC4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[IC9:.*]] = arith.constant 9 : index
// CHECK: %[[IG:.*]], %[[IP:.*]] = arts.db_alloc <inout> <write> <block>
// CHECK: scf.for %[[IK:.*]] = %{{.*}} to %[[IC4]] step
// CHECK-NEXT: %[[ISTART:.*]] = arith.muli %[[IK]], %[[IC3]] : index
// CHECK-NEXT: %[[ILO:.*]] = arith.maxsi %[[ISTART]], %[[IC1]] : index
// CHECK-NEXT: %[[IEND:.*]] = arith.addi %[[ISTART]], %[[IC3]] : index
// CHECK-NEXT: %[[IHI:.*]] = arith.minsi %[[IEND]], %[[IC9]] : index
// CHECK: arts.db_acquire <out> (%[[IG]], %[[IP]] : memref<?xi64>, memref<?xmemref<?x16xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: scf.for %{{.*}} = %[[ILO]] to %[[IHI]]
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 3 : i64, arts.chunk_static_share, arts.chunk_trips = 10 : i64}

// Every loop of this module, light (@rows, @small_rows_over_nodes) or heavy, takes the static
// share with no `at least`.
// DEBUG: [for-lowering] {{.*}}for-lowering.mlir:[[#]]:5: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=4 (2 per node x 2 nodes) route(b) = floor(b / ceil(chunks / 4)) % 2, worker floor(b / ceil(chunks / 4)) / 2 internode reductions=0
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=4 (2 per node x 2 nodes) route(b) = floor(b / ceil(chunks / 4)) % 2, worker floor(b / ceil(chunks / 4)) / 2 internode reductions=0
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=4 (2 per node x 2 nodes) route(b) = floor(b / ceil(chunks / 4)) % 2, worker floor(b / ceil(chunks / 4)) / 2 internode reductions=0
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=4 (2 per node x 2 nodes) route(b) = floor(b / ceil(chunks / 4)) % 2, worker floor(b / ceil(chunks / 4)) / 2 internode reductions=0
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for over several nodes from row 1: chunks are its rows within the shares of rows 0 .. lb + ub, as the arrays' blocks are
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=4 (2 per node x 2 nodes) route(b) = floor(b / ceil(chunks / 4)) % 2, worker floor(b / ceil(chunks / 4)) / 2 internode reductions=0
// @rows: the transposed read is cut along the dimension its chunk indexes; the estimate
// compares the bytes each cut leaves the tasks to move (the leading one cannot be cut).
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=block blocks=ceil(rows / 4) dim=1 (bytes the tasks move per run of their loops, estimated: dim 0 coarse, dim 1 0 bytes) block=memref<?x?xf32> distributed=no (the row count is not a compile-time constant, and initPerNode reserves the blocks before mainBody runs)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x?xf32> distributed=no (the row count is not a compile-time constant, and initPerNode reserves the blocks before mainBody runs)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// @static_rows
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<10x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 4)) % 2
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// @heavy_rows
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// @small_rows_over_nodes
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<10x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 4)) % 2
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// @interior_rows
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<10x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=yes
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
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
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c10, %c16] : memref<?xi64>, memref<?xmemref<10x16xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<10x16xf32>>) : memref<?xi64>, memref<?xmemref<10x16xf32>>
  arts.edt <parallel> <internode> route(%r) (%q : memref<?xmemref<10x16xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<10x16xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<10x16xf32>> -> memref<10x16xf32>
    arts.for (%c0) to (%c10) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c16 step %c1 {
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = arith.index_cast %k : index to i32
          %f = arith.sitofp %x : i32 to f32
          %next = arith.addf %acc, %f : f32
          scf.yield %next : f32
        }
        memref.store %sum, %b[%i, %j] : memref<10x16xf32>
      }
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<10x16xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<10x16xf32>>)
  return
}

func.func @heavy_rows(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n, %c16] : memref<?xi64>, memref<?xmemref<?x16xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<?x16xf32>>) : memref<?xi64>, memref<?xmemref<?x16xf32>>
  arts.edt <parallel> <internode> route(%r) (%q : memref<?xmemref<?x16xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<?x16xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<?x16xf32>> -> memref<?x16xf32>
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c16 step %c1 {
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = arith.index_cast %k : index to i32
          %f = arith.sitofp %x : i32 to f32
          %next = arith.addf %acc, %f : f32
          scf.yield %next : f32
        }
        memref.store %sum, %b[%i, %j] : memref<?x16xf32>
      }
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<?x16xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x16xf32>>)
  return
}

func.func @small_rows_over_nodes() {
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

func.func @interior_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c10, %c16] : memref<?xi64>, memref<?xmemref<10x16xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<10x16xf32>>) : memref<?xi64>, memref<?xmemref<10x16xf32>>
  arts.edt <parallel> <internode> route(%r) (%q : memref<?xmemref<10x16xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<10x16xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<10x16xf32>> -> memref<10x16xf32>
    arts.for (%c1) to (%c9) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c16 step %c1 {
        %sum = scf.for %k = %c0 to %c128 step %c1 iter_args(%acc = %zero) -> (f32) {
          %x = arith.index_cast %k : index to i32
          %f = arith.sitofp %x : i32 to f32
          %next = arith.addf %acc, %f : f32
          scf.yield %next : f32
        }
        memref.store %sum, %b[%i, %j] : memref<10x16xf32>
      }
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<10x16xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<10x16xf32>>)
  return
}
}

// -----

// One node of 4 threads: the light loops get chunks of at least ceil(4096 / weight)
// iterations, all on node 0 (route(b) = node 0 + 1 * (1 + worker)); a collapse(2) loop
// chunks both loops' iterations unless it asks for a chunk or reduces.

// The light body of @rows over run-time rows: chunks of at least ceil(4096 / 194) = 22 rows.
// The static share is no longer recorded (raised to 22), nor the trip count (not a
// constant), so the write is `concurrent`.
// The transposed read cannot be cut along its rows: on one node it is cut along the columns
// its chunks read, each block laid out column first (blocks of max(ceil(m / 4), 1) columns
// of n rows).
// CHECK-LABEL: func.func @rows_one_node
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG: %[[C22:.*]] = arith.constant 22 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[ADIV:.*]] = arith.ceildivui %[[M]], %[[C4]] : index
// CHECK: %[[AB:.*]] = arith.maxsi %[[ADIV]], %[[C1]] : index
// CHECK: %[[GA:.*]], %[[PA:.*]] = arts.db_alloc <in> <read> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%[[AB]], %[[N]]] : memref<?xi64>, memref<?xmemref<?x?xf32>>
// CHECK: %[[BDIV:.*]] = arith.ceildivui %[[N]], %[[C4]] : index
// CHECK: %[[B:.*]] = arith.maxsi %[[BDIV]], %[[C1]] : index
// One node: the table stays there, no owner rule.
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%[[B]], %[[M]]] : memref<?xi64>, memref<?xmemref<?x?xf32>>
// c = max(ceil(n / 4), 22) (the floor), evened out over as many chunks:
// chunk = max(ceil(n / max(ceil(n / c), 1)), 1), chunks = ceil(n / chunk).
// CHECK: %[[SPAN:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK-NEXT: %[[CS0:.*]] = arith.ceildivui %[[SPAN]], %[[C4]] : index
// CHECK-NEXT: %[[CS1:.*]] = arith.maxsi %[[CS0]], %[[C22]] : index
// CHECK-NEXT: %[[CSN:.*]] = arith.ceildivui %[[SPAN]], %[[CS1]] : index
// CHECK-NEXT: %[[CSN1:.*]] = arith.maxsi %[[CSN]], %[[C1]] : index
// CHECK-NEXT: %[[CSE:.*]] = arith.ceildivui %[[SPAN]], %[[CSN1]] : index
// CHECK-NEXT: %[[CS:.*]] = arith.maxsi %[[CSE]], %[[C1]] : index
// CHECK-NEXT: %[[CHUNKS:.*]] = arith.ceildivui %[[SPAN]], %[[CS]] : index
// CHECK-NEXT: arts.epoch {
// CHECK: scf.for %[[BIDX:.*]] = %{{.*}} to %[[CHUNKS]] step
// CHECK: %[[PERW:.*]] = arith.ceildivui %[[CHUNKS]], %[[C4]] : index
// CHECK-NEXT: %[[PERW1:.*]] = arith.maxui %[[PERW]], %[[C1]] : index
// CHECK-NEXT: %[[W:.*]] = arith.divui %[[BIDX]], %[[PERW1]] : index
// CHECK-NEXT: %[[ASK:.*]] = arith.addi %[[W]], %[[C1]] : index
// CHECK-NEXT: %[[ROUTE:.*]] = arith.index_cast %[[ASK]] : index to i32
// CHECK: arts.db_acquire <in> (%[[GA]], %[[PA]] : memref<?xi64>, memref<?xmemref<?x?xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.db_acquire <concurrent> (%[[GB]], %[[PB]] : memref<?xi64>, memref<?xmemref<?x?xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.edt <task> <intranode> route(%[[ROUTE]])
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64}

// The same loop over 50 rows: the floor alone would make chunks of 22, 22 and 6 rows; as
// many chunks evened out are 17, 17 and 16.
// CHECK-LABEL: func.func @rows_fifty
// CHECK-DAG: %[[F3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[F17:.*]] = arith.constant 17 : index
// CHECK-DAG: %[[F50:.*]] = arith.constant 50 : index
// CHECK: scf.for %[[FB:.*]] = %{{.*}} to %[[F3]] step
// CHECK-NEXT: %[[FLO:.*]] = arith.muli %[[FB]], %[[F17]] : index
// CHECK-NEXT: %[[FHI:.*]] = arith.addi %[[FLO]], %[[F17]] : index
// CHECK-NEXT: arith.minsi %[[FHI]], %[[F50]] : index

// 10 rows of a light body (about 66 operations): at least 63 iterations a chunk, so the
// whole loop is one chunk, a single task. Blocks follow the chunks the loop makes, and one
// block would be the whole array: the datablock stays coarse, and the task writes it as
// `out` (no other chunk shares it; the exclusive mode orders it after earlier writers in a
// fused epoch).
// CHECK-LABEL: func.func @small_rows()
// CHECK: %[[SG:.*]], %[[SP:.*]] = arts.db_alloc <inout> <write> <coarse> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}, %{{.*}}] : memref<?xi64>, memref<?xmemref<10x16xf32>>
// CHECK-NEXT: arts.epoch {
// CHECK-NEXT: arts.db_acquire <out> (%[[SG]], %[[SP]] : memref<?xi64>, memref<?xmemref<10x16xf32>>) : memref<?xi64>, memref<?xmemref<10x16xf32>>
// CHECK-NEXT: arts.edt <task> <intranode>
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 10 : i64, arts.chunk_trips = 10 : i64}

// The same light body over 1000 rows: the minimum of 63 is below the static share of 250,
// so the chunks stay the static share, exactly the blocks of 250 rows, written as `out`.
// CHECK-LABEL: func.func @many_small_rows
// CHECK-DAG: %[[MC250:.*]] = arith.constant 250 : index
// CHECK-DAG: %[[MC4:.*]] = arith.constant 4 : index
// CHECK: %[[MG:.*]], %[[MP:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[MC4]]] elementSizes[%[[MC250]], %{{.*}}] : memref<?xi64>, memref<?xmemref<?x16xf32>>
// CHECK: scf.for %[[MK:.*]] = %{{.*}} to %[[MC4]] step
// CHECK-NEXT: %{{.*}} = arith.muli %[[MK]], %[[MC250]] : index
// CHECK: arts.db_acquire <out> (%[[MG]], %[[MP]] : memref<?xi64>, memref<?xmemref<?x16xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 250 : i64, arts.chunk_static_share, arts.chunk_trips = 1000 : i64}

// collapse(2) over i = 1, 3, .. < n and j = 2, 5, .. < m: the chunks cut the product of the
// trip counts ceil((n - 1) / 2) x ceil((m - 2) / 3), at least ceil(4096 / 4) = 1024
// iterations each (the inner body's weight), and iteration k is i = 1 + (k / inner trips) * 2,
// j = 2 + (k mod inner trips) * 3, with the inner loop gone. Its row is not the chunk's, so
// the array stays one datablock written `concurrent`.
// CHECK-LABEL: func.func @collapsed_grid
// CHECK-SAME: (%[[GN:.*]]: index, %[[GM:.*]]: index)
// CHECK-DAG: %[[G1024:.*]] = arith.constant 1024 : index
// CHECK-DAG: %[[G4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[G0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[G1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[G2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[G3:.*]] = arith.constant 3 : index
// CHECK: %[[GG:.*]], %[[GP:.*]] = arts.db_alloc <inout> <write> <coarse>
// CHECK-NEXT: %[[OSPAN:.*]] = arith.subi %[[GN]], %[[G1]] : index
// CHECK-NEXT: %[[OSPAN0:.*]] = arith.maxsi %[[OSPAN]], %[[G0]] : index
// CHECK-NEXT: %[[OTRIPS:.*]] = arith.ceildivsi %[[OSPAN0]], %[[G2]] : index
// CHECK-NEXT: %[[ISPAN:.*]] = arith.subi %[[GM]], %[[G2]] : index
// CHECK-NEXT: %[[ISPAN0:.*]] = arith.maxsi %[[ISPAN]], %[[G0]] : index
// CHECK-NEXT: %[[ITRIPS:.*]] = arith.ceildivsi %[[ISPAN0]], %[[G3]] : index
// CHECK-NEXT: %[[TRIPS:.*]] = arith.muli %[[OTRIPS]], %[[ITRIPS]] : index
// CHECK-NEXT: %[[GCS0:.*]] = arith.ceildivui %[[TRIPS]], %[[G4]] : index
// CHECK-NEXT: %[[GCS1:.*]] = arith.maxsi %[[GCS0]], %[[G1024]] : index
// CHECK-NEXT: %[[GCSN:.*]] = arith.ceildivui %[[TRIPS]], %[[GCS1]] : index
// CHECK-NEXT: %[[GCSN1:.*]] = arith.maxsi %[[GCSN]], %[[G1]] : index
// CHECK-NEXT: %[[GCSE:.*]] = arith.ceildivui %[[TRIPS]], %[[GCSN1]] : index
// CHECK-NEXT: %[[GCS:.*]] = arith.maxsi %[[GCSE]], %[[G1]] : index
// CHECK-NEXT: %[[GCHUNKS:.*]] = arith.ceildivui %[[TRIPS]], %[[GCS]] : index
// CHECK-NEXT: arts.epoch {
// CHECK-NEXT: scf.for %[[GB:.*]] = %[[G0]] to %[[GCHUNKS]] step %[[G1]] {
// CHECK-NEXT: %[[FROM:.*]] = arith.muli %[[GB]], %[[GCS]] : index
// CHECK-NEXT: %[[TO0:.*]] = arith.addi %[[FROM]], %[[GCS]] : index
// CHECK-NEXT: %[[TO:.*]] = arith.minsi %[[TO0]], %[[TRIPS]] : index
// CHECK: arts.db_acquire <concurrent> (%[[GG]], %[[GP]] : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
// CHECK: scf.for %[[K:.*]] = %[[FROM]] to %[[TO]] step %[[G1]] {
// CHECK-NEXT: %[[ROW:.*]] = arith.divui %[[K]], %[[ITRIPS]] : index
// CHECK-NEXT: %[[COL:.*]] = arith.remui %[[K]], %[[ITRIPS]] : index
// CHECK-NEXT: %[[I0:.*]] = arith.muli %[[ROW]], %[[G2]] : index
// CHECK-NEXT: %[[I:.*]] = arith.addi %[[I0]], %[[G1]] : index
// CHECK-NEXT: %[[J0:.*]] = arith.muli %[[COL]], %[[G3]] : index
// CHECK-NEXT: %[[J:.*]] = arith.addi %[[J0]], %[[G2]] : index
// CHECK-NEXT: %[[JI:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT: %[[JF:.*]] = arith.sitofp %[[JI]] : i32 to f32
// CHECK-NEXT: %[[GREF:.*]] = arts.db_ref
// CHECK-NEXT: memref.store %[[JF]], %[[GREF]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64}

// A requested chunk keeps the chunks on the outer loop: they cut n rows (no product of trip
// counts), and each iteration still runs the arts.collapsed inner loop.
// CHECK-LABEL: func.func @collapsed_chunked
// CHECK-SAME: (%[[CN:.*]]: index, %[[CM:.*]]: index)
// CHECK-NOT: arith.muli
// CHECK: %[[CSPAN:.*]] = arith.maxsi %[[CN]], %{{.*}} : index
// CHECK-NEXT: %[[CCS0:.*]] = arith.ceildivui %[[CSPAN]], %{{.*}} : index
// CHECK-NEXT: %[[CCS1:.*]] = arith.maxsi %[[CCS0]], %{{.*}} : index
// CHECK-NEXT: %[[CCS:.*]] = arith.maxsi %[[CCS1]], %{{.*}} : index
// CHECK-NEXT: %[[CCHUNKS:.*]] = arith.ceildivui %[[CSPAN]], %[[CCS]] : index
// CHECK-NEXT: arts.epoch {
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[CCHUNKS]] step
// CHECK: scf.for %[[CJ:.*]] = %{{.*}} to %[[CM]] step %{{.*}} {
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[CJ]]] : memref<?x?xf32>
// CHECK-NEXT: } {arts.collapsed}
// CHECK-NEXT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64}

// A reduction keeps the chunks on the outer loop too, the arts.collapsed loop inside each
// iteration updating the chunk's partial sum.
// CHECK-LABEL: func.func @collapsed_reduction
// CHECK-SAME: (%[[RN:.*]]: index, %[[RM:.*]]: index)
// CHECK-NOT: arith.muli
// CHECK: %[[RSPAN:.*]] = arith.maxsi %[[RN]], %{{.*}} : index
// CHECK-NEXT: %[[RCS0:.*]] = arith.ceildivui %[[RSPAN]], %{{.*}} : index
// CHECK-NEXT: %[[RCS1:.*]] = arith.maxsi %[[RCS0]], %{{.*}} : index
// CHECK-NEXT: %[[RCSN:.*]] = arith.ceildivui %[[RSPAN]], %[[RCS1]] : index
// CHECK-NEXT: %[[RCSN1:.*]] = arith.maxsi %[[RCSN]], %{{.*}} : index
// CHECK-NEXT: %[[RCSE:.*]] = arith.ceildivui %[[RSPAN]], %[[RCSN1]] : index
// CHECK-NEXT: %[[RCS:.*]] = arith.maxsi %[[RCSE]], %{{.*}} : index
// CHECK-NEXT: %[[RCHUNKS:.*]] = arith.ceildivui %[[RSPAN]], %[[RCS]] : index
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[RCHUNKS]] step
// CHECK: %[[PARTIAL:.*]] = memref.alloca() : memref<f32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[RM]] step %{{.*}} {
// CHECK: memref.store %{{.*}}, %[[PARTIAL]][] : memref<f32>
// CHECK-NEXT: } {arts.collapsed}
// CHECK-NEXT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64}

// DEBUG: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 22 iterations (about 194 operations each), evened out workers=4 (4 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 4)) % 1, worker floor(b / ceil(chunks / 4)) / 1 intranode reductions=0
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 22 iterations (about 194 operations each), evened out workers=4
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 63 iterations (about 66 operations each), evened out workers=4 (4 per node x 1 nodes)
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 63 iterations (about 66 operations each), evened out workers=4 (4 per node x 1 nodes)
// @collapsed_grid, then @collapsed_chunked and @collapsed_reduction without the collapse line.
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for collapse(2): chunks over both loops' iterations (outer trips x inner trips)
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 1024 iterations (about 4 operations each), evened out workers=4 (4 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 4)) % 1, worker floor(b / ceil(chunks / 4)) / 1 intranode reductions=0
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=requested chunk (at most 16 per worker) workers=4 (4 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 4)) % 1, worker floor(b / ceil(chunks / 4)) / 1 intranode reductions=0
// DEBUG-NEXT: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 11 iterations (about 386 operations each), evened out workers=4 (4 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 4)) % 1, worker floor(b / ceil(chunks / 4)) / 1 intranode reductions=1
// @rows_one_node
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=block blocks=ceil(rows / 4) dim=1 (bytes the tasks move per run of their loops, estimated: dim 0 coarse, dim 1 0 bytes) block=memref<?x?xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x?xf32> distributed=no{{$}}
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent partition=block blocks of its chunk (offsets 0..0)
// @rows_fifty: blocks follow the 3 chunks the loop makes, each of the chunks' 17 rows (the
// floor's evened-out chunk size, arts.chunk_rows): chunk b is block b, written `out`; the
// transposed read is cut along its columns
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=block blocks=ceil(rows / 3) dim=1 (bytes the tasks move per run of their loops, estimated: dim 0 coarse, dim 1 0 bytes) block=memref<?x?xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=block blocks=ceil(rows / 3) block=memref<?x?xf32> distributed=no{{$}}
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// @small_rows
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<10x16xf32> -> partition=coarse (its loops make one chunk each: one block would be the whole array)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out full-range (the loop's only chunk shares the write with nobody)
// @many_small_rows
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<1000x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=no{{$}}
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// @collapsed_grid
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=coarse (a chunk task writes it at an index not derived from its chunk)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent full-range (chunk tasks of one loop share the write)
// @collapsed_chunked
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?x?xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x?xf32> distributed=no{{$}}
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent partition=block blocks of its chunk (offsets 0..0)
// @collapsed_reduction: its partial sums
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<?xf32> -> partition=coarse (a chunk task writes it at an index not derived from its chunk)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent full-range (chunk tasks of one loop share the write)
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @rows_one_node(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  arts.edt <parallel> <intranode> route(%r) (%qa, %qb : memref<?xmemref<?x?xf32>>, memref<?xmemref<?x?xf32>>) attributes {workers = 4 : i64} {
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

func.func @rows_fifty(%m: index) {
  %n = arith.constant 50 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  arts.edt <parallel> <intranode> route(%r) (%qa, %qb : memref<?xmemref<?x?xf32>>, memref<?xmemref<?x?xf32>>) attributes {workers = 4 : i64} {
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

func.func @small_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c10, %c16] : memref<?xi64>, memref<?xmemref<10x16xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<10x16xf32>>) : memref<?xi64>, memref<?xmemref<10x16xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<10x16xf32>>) attributes {workers = 4 : i64} {
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

func.func @many_small_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c1000, %c16] : memref<?xi64>, memref<?xmemref<1000x16xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<1000x16xf32>>) : memref<?xi64>, memref<?xmemref<1000x16xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<1000x16xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<1000x16xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<1000x16xf32>> -> memref<1000x16xf32>
    arts.for (%c0) to (%c1000) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c16 step %c1 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        memref.store %f, %b[%i, %j] : memref<1000x16xf32>
      }
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<1000x16xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<1000x16xf32>>)
  return
}

func.func @collapsed_grid(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<?x?xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<?x?xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
    arts.for (%c1) to (%n) step (%c2) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c2 to %m step %c3 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        memref.store %f, %b[%i, %j] : memref<?x?xf32>
      } {arts.collapsed}
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<?x?xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  return
}

func.func @collapsed_chunked(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<?x?xf32>>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<?x?xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<?x?xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
    arts.for (%c0) to (%n) step (%c1) schedule(<dynamic>, %c2) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %m step %c1 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        memref.store %f, %b[%i, %j] : memref<?x?xf32>
      } {arts.collapsed}
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<?x?xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  return
}

func.func @collapsed_reduction(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[] : memref<?xi64>, memref<?xmemref<f32>>
  %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<f32>>) : memref<?xi64>, memref<?xmemref<f32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<f32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<f32>>):
    %sum = arts.db_ref %v[%c0] : memref<?xmemref<f32>> -> memref<f32>
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) reduction([#arts.reduction<add>] %sum : memref<f32>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %m step %c1 {
        %x = arith.index_cast %j : index to i32
        %f = arith.sitofp %x : i32 to f32
        %s = memref.load %sum[] : memref<f32>
        %t = arith.addf %s, %f : f32
        memref.store %t, %sum[] : memref<f32>
      } {arts.collapsed}
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<f32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<f32>>)
  return
}
}

// -----

// Two nodes, but an `<intranode>` parallel task (pinned to node 0 by the concurrency stage)
// of 2 workers: its loop lies within one node, so the light body's minimum of 63 iterations
// applies and the 10 rows are one chunk, routed to worker 0 of node 0 (route 0 + 2 * 1); the
// table stays on node 0 and the single task writes both blocks as `out`: in a module over
// several nodes a chunk write that is not block-aligned keeps its mode.
// CHECK-LABEL: func.func @small_rows_intranode
// CHECK-DAG: %[[TROUTE:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[TC0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[TC2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[TC5:.*]] = arith.constant 5 : index
// CHECK: %[[TG:.*]], %[[TP:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[TC2]]] elementSizes[%[[TC5]], %{{.*}}] : memref<?xi64>, memref<?xmemref<?x16xf32>>
// CHECK-NEXT: arts.epoch {
// CHECK-NEXT: arts.db_acquire <out> (%[[TG]], %[[TP]] : memref<?xi64>, memref<?xmemref<?x16xf32>>) offsets[%[[TC0]]] sizes[%[[TC2]]] partition(<block>)
// CHECK-NEXT: arts.edt <task> <intranode> route(%[[TROUTE]])
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 10 : i64, arts.chunk_trips = 10 : i64}

// DEBUG: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 63 iterations (about 66 operations each), evened out workers=2 (2 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 2)) % 1, worker floor(b / ceil(chunks / 2)) / 1 intranode reductions=0
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<10x16xf32> -> partition=block blocks=ceil(rows / 2) block=memref<?x16xf32> distributed=no (no internode task uses it)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out: the loop's only chunk, no neighbour shares its blocks
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @small_rows_intranode() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c10, %c16] : memref<?xi64>, memref<?xmemref<10x16xf32>>
  %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<10x16xf32>>) : memref<?xi64>, memref<?xmemref<10x16xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<10x16xf32>>) attributes {workers = 2 : i64} {
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

// -----

// Math functions weigh what they cost: over 64 elements, exp (60 operations, a libm call)
// and a division (8) make about 72 operations an iteration, so with min-chunk-ops=4096 a
// chunk takes at least 57 iterations: two chunks of 32, where counting exp and the division
// as one operation each would have made one chunk of all 64.
// CHECK-LABEL: func.func @exp_rows
// CHECK-DAG: %[[EC2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[EC32:.*]] = arith.constant 32 : index
// CHECK: scf.for %[[EK:.*]] = %{{.*}} to %[[EC2]] step
// CHECK-NEXT: arith.muli %[[EK]], %[[EC32]] : index
// DEBUG: [for-lowering] {{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 57 iterations (about 72 operations each), evened out workers=4
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @exp_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %r = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c64] : memref<?xi64>, memref<?xmemref<64xf32>>
  %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<64xf32>>) : memref<?xi64>, memref<?xmemref<64xf32>>
  arts.edt <parallel> <intranode> route(%r) (%q : memref<?xmemref<64xf32>>) attributes {workers = 4 : i64} {
  ^bb0(%v: memref<?xmemref<64xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<64xf32>> -> memref<64xf32>
    arts.for (%c0) to (%c64) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %x = memref.load %b[%i] : memref<64xf32>
      %e = math.exp %x : f32
      %d = arith.addf %e, %one : f32
      %y = arith.divf %one, %d : f32
      memref.store %y, %b[%i] : memref<64xf32>
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<64xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<64xf32>>)
  return
}
}

// -----

// Two nodes of one worker. A loop over columns j reads t[i][j] for every row (its chunk
// indexes t's second dimension) and a collapse(2) nest over (i, j) writes t[i][j]: chunked
// along i, as on one node, the nest and the column loop would cut t differently. It is chunked
// along its inner loop instead (the other loop indexes t's 256 bytes as j does), each chunk
// running every row of its columns; t is then cut by columns, and both loops take only their
// own blocks.
// CHECK-LABEL: func.func @collapsed_by_columns
// CHECK-DAG: %[[XC0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[XC1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[XC4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[XC8:.*]] = arith.constant 8 : index
// CHECK: %[[XG:.*]], %[[XP:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%[[XC8]], %[[XC4]]] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed} : memref<?xi64>, memref<?xmemref<8x?xf32>>
// CHECK: arts.epoch {
// CHECK: arts.db_acquire <in> (%[[XG]], %[[XP]] : memref<?xi64>, memref<?xmemref<8x?xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.epoch {
// CHECK: arts.db_acquire <out> (%[[XG]], %[[XP]] : memref<?xi64>, memref<?xmemref<8x?xf32>>) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.edt <task> <internode>
// CHECK: scf.for %[[XJ:.*]] = %{{.*}} to %{{.*}} step %[[XC1]] {
// CHECK: scf.for %[[XI:.*]] = %[[XC0]] to %[[XC8]] step %[[XC1]] {
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[XI]], %{{.*}}] : memref<8x?xf32>
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 4 : i64, arts.chunk_static_share, arts.chunk_trips = 8 : i64}
// DEBUG: [for-lowering] {{.*}}: arts.for collapse(2) on several nodes: chunks along the inner loop (the other loops index 256 bytes of arrays as the inner loop does, 0 as the outer one)
// DEBUG: [for-lowering] {{.*}}: arts.for collapse(2): chunks of the inner loop's iterations, each running the whole outer loop
// DEBUG: [db-partitioning] {{.*}}: alloc memref<8x8xf32> -> partition=block blocks=ceil(rows / 2) dim=1 (bytes the tasks move per run of their loops, estimated: dim 0 coarse, dim 1 0 bytes) block=memref<8x?xf32> distributed=yes
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @collapsed_by_columns() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c8, %c8] : memref<?xi64>, memref<?xmemref<8x8xf32>>
  %sg, %s = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c8] : memref<?xi64>, memref<?xmemref<8xf32>>
  %q_g, %q = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<8x8xf32>>) : memref<?xi64>, memref<?xmemref<8x8xf32>>
  %w_g, %w = arts.db_acquire <out> (%sg, %s : memref<?xi64>, memref<?xmemref<8xf32>>) : memref<?xi64>, memref<?xmemref<8xf32>>
  arts.edt <parallel> <internode> route(%r) (%q, %w : memref<?xmemref<8x8xf32>>, memref<?xmemref<8xf32>>) attributes {workers = 2 : i64} {
  ^bb0(%v: memref<?xmemref<8x8xf32>>, %sv: memref<?xmemref<8xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<8x8xf32>> -> memref<8x8xf32>
    %sb = arts.db_ref %sv[%c0] : memref<?xmemref<8xf32>> -> memref<8xf32>
    arts.for (%c0) to (%c8) step (%c1) schedule(<static>) {
    ^bb0(%j: index):
      scf.for %i = %c0 to %c8 step %c1 {
        %x = memref.load %b[%i, %j] : memref<8x8xf32>
        memref.store %x, %sb[%j] : memref<8xf32>
      }
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<8x8xf32>>)
    arts.db_release(%sv : memref<?xmemref<8xf32>>)
  }
  %q2_g, %q2 = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<8x8xf32>>) : memref<?xi64>, memref<?xmemref<8x8xf32>>
  arts.edt <parallel> <internode> route(%r) (%q2 : memref<?xmemref<8x8xf32>>) attributes {workers = 2 : i64} {
  ^bb0(%v: memref<?xmemref<8x8xf32>>):
    %b = arts.db_ref %v[%c0] : memref<?xmemref<8x8xf32>> -> memref<8x8xf32>
    arts.for (%c0) to (%c8) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %c8 step %c1 {
        memref.store %zero, %b[%i, %j] : memref<8x8xf32>
      } {arts.collapsed}
    }
    arts.barrier
    arts.db_release(%v : memref<?xmemref<8x8xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<8x8xf32>>)
  arts.db_free(%sg, %s : memref<?xi64>, memref<?xmemref<8xf32>>)
  return
}
}

// -----

// Two nodes of one worker, a stencil over rows 1 .. 8 of 10 reading the rows next to its own:
// each share of 5 rows (rows 0 .. 9 cut as the arrays are) is three chunks, its first row,
// the 3 rows between and its last row, routed to the share's node (chunk b: share b / 3).
// db-partitioning cuts the read table alike (edges of 1 row), so the chunk of the rows
// between reads nothing of the other node and runs while the edges travel.
// CHECK-LABEL: func.func @stencil_edges
// CHECK-DAG: %[[SC0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[SC1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[SC3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[SC4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[SC5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[SC6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[SC9:.*]] = arith.constant 9 : index
// CHECK: arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[SC6]]] elementSizes[%[[SC3]], %{{.*}}] {arts.edge_rows = array<i64: 0, 1, 3>
// CHECK: scf.for %[[SB:.*]] = %[[SC0]] to %[[SC6]] step %[[SC1]] {
// CHECK-NEXT: %[[SHARE:.*]] = arith.divui %[[SB]], %[[SC3]] : index
// CHECK-NEXT: %[[PART:.*]] = arith.remui %[[SB]], %[[SC3]] : index
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[SHARE]], %[[SC5]] : index
// CHECK-NEXT: %[[HEAD:.*]] = arith.cmpi eq, %[[PART]], %[[SC0]] : index
// CHECK-NEXT: %[[MID:.*]] = arith.cmpi eq, %[[PART]], %[[SC1]] : index
// CHECK-NEXT: %[[FROM1:.*]] = arith.select %[[MID]], %[[SC1]], %[[SC4]] : index
// CHECK-NEXT: %[[FROM:.*]] = arith.select %[[HEAD]], %[[SC0]], %[[FROM1]] : index
// CHECK-NEXT: %[[TO1:.*]] = arith.select %[[MID]], %[[SC4]], %[[SC5]] : index
// CHECK-NEXT: %[[TO:.*]] = arith.select %[[HEAD]], %[[SC1]], %[[TO1]] : index
// CHECK-NEXT: %[[LO0:.*]] = arith.addi %[[BASE]], %[[FROM]] : index
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[LO0]], %[[SC1]] : index
// CHECK-NEXT: %[[HI0:.*]] = arith.addi %[[BASE]], %[[TO]] : index
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[HI0]], %[[SC9]] : index
// CHECK: arts.edt <task> <internode>
// CHECK: scf.for %{{.*}} = %[[LO]] to %[[HI]] step %[[SC1]] {
// CHECK: } {arts.chunk_edges = 1 : i64, arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 10 : i64}
// DEBUG: [for-lowering] {{.*}}: arts.for over several nodes reads 1 rows beyond its own: each share of 5 rows is three chunks, its first and last 1 rows and the rows between, which run while the edges travel
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @stencil_edges() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c10, %c16] : memref<?xi64>, memref<?xmemref<10x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c10, %c16] : memref<?xi64>, memref<?xmemref<10x16xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<10x16xf32>>) : memref<?xi64>, memref<?xmemref<10x16xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<10x16xf32>>) : memref<?xi64>, memref<?xmemref<10x16xf32>>
  arts.edt <parallel> <internode> route(%r) (%qa, %qb : memref<?xmemref<10x16xf32>>, memref<?xmemref<10x16xf32>>) attributes {workers = 2 : i64} {
  ^bb0(%va: memref<?xmemref<10x16xf32>>, %vb: memref<?xmemref<10x16xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<10x16xf32>> -> memref<10x16xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<10x16xf32>> -> memref<10x16xf32>
    arts.for (%c1) to (%c9) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %up = arith.subi %i, %c1 : index
      %down = arith.addi %i, %c1 : index
      scf.for %j = %c0 to %c16 step %c1 {
        %x = memref.load %a[%up, %j] : memref<10x16xf32>
        %z = memref.load %a[%down, %j] : memref<10x16xf32>
        %s = arith.addf %x, %z : f32
        memref.store %s, %b[%i, %j] : memref<10x16xf32>
      }
    }
    arts.barrier
    arts.db_release(%va : memref<?xmemref<10x16xf32>>)
    arts.db_release(%vb : memref<?xmemref<10x16xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<10x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<10x16xf32>>)
  return
}
}
