// arts-db-partitioning on chunk tasks (as arts-for-lowering leaves them) that read a stencil:
// a read indexed by the chunk loop's IV plus or minus a constant, on index values or computed
// in i32 and cast back as C front ends write `A[i + 1]`, acquires only the blocks of its
// chunk's rows widened by the offsets (a halo), computed in the launcher from the chunk
// loop's own bounds; each access picks its block once per row of the chunk loop. A shifted
// write through a cast keeps the datablock coarse; with several nodes the owner rule of the
// block table does not change.
// A chunk task writes its blocks as `out` only when chunk k is exactly block k, which the
// chunk loop's attributes from arts-for-lowering establish (chunks from row 0, over every
// row, of the static share); otherwise neighbouring chunks write disjoint rows of a shared
// boundary block, and on one node they take it as `concurrent`. On several nodes they keep
// `out`: a shared block would travel as copies merged byte by byte, which loses updates, so
// the owner's queue hands it to one writer at a time. On one node, an array that some task
// reads whole stays one datablock: per-block dependences would cost more than they free.
// A loop's only chunk (a launch loop of one trip, or a chunk loop over all the rows) shares
// its writes with nobody and keeps its exclusive mode.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-db-partitioning,canonicalize,cse)' | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-db-partitioning)' --debug-only=db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// Jacobi's read of 18 rows by 4 workers (B = 5 rows, 4 blocks) in a launcher of chunks
// [1 + 4k, min(5 + 4k, 17)): rows [lo - 1, hi] (lo - 1 folds to 4k), clamped to blocks [0, 3].
// The chunks of 4 interior rows from row 1 are not the blocks of 5 rows from row 0, so the
// write is `concurrent`: chunk 1 (rows 5-8) and chunk 2 (rows 9-12) both write block 1.
// CHECK-LABEL: func.func @halo_launcher
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[CM1:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C17:.*]] = arith.constant 17 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK: %[[GA:.*]], %[[PA:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%[[C5]], %[[C16]]]
// CHECK: scf.for %[[K:.*]] = %[[C0]] to
// CHECK-NEXT: %[[SHIFT:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK-NEXT: %[[LO:.*]] = arith.addi %[[SHIFT]], %[[C1]] : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[SHIFT]], %[[C5]] : index
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[END]], %[[C17]] : index
// CHECK-NEXT: %[[FROM:.*]] = arith.maxsi %[[SHIFT]], %[[C0]] : index
// CHECK-NEXT: %[[FROMB:.*]] = arith.divsi %[[FROM]], %[[C5]] : index
// CHECK-NEXT: %[[FIRST:.*]] = arith.minsi %[[FROMB]], %[[C3]] : index
// CHECK-NEXT: %[[TO:.*]] = arith.maxsi %[[HI]], %[[C0]] : index
// CHECK-NEXT: %[[TOB:.*]] = arith.divsi %[[TO]], %[[C5]] : index
// CHECK-NEXT: %[[LAST:.*]] = arith.minsi %[[TOB]], %[[C3]] : index
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[LAST]], %[[FIRST]] : index
// CHECK-NEXT: %[[SPAN1:.*]] = arith.addi %[[SPAN]], %[[C1]] : index
// CHECK-NEXT: %[[COUNT:.*]] = arith.maxsi %[[SPAN1]], %[[C1]] : index
// CHECK-NEXT: %{{.*}}, %[[QA:.*]] = arts.db_acquire <in> (%[[GA]], %[[PA]] : {{.*}}) offsets[%[[FIRST]]] sizes[%[[COUNT]]] partition(<block>)
// The write keeps the blocks of rows [lo, hi - 1], shared with the neighbouring chunks.
// CHECK: arts.db_acquire <concurrent> {{.*}} offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: ^bb0(%[[VA:.*]]: memref<?xmemref<?x16xf32>>, %{{.*}}: memref<?xmemref<?x16xf32>>):
// CHECK-NEXT: scf.for %[[I:.*]] = %[[LO]] to %[[HI]] step %[[C1]] {
// Row i - 1: block (i - 1) / B - first, clamped to the acquired [0, count - 1].
// CHECK: %[[UP:.*]] = arith.addi %[[I]], %[[CM1]] : index
// CHECK-NEXT: %[[UPB:.*]] = arith.divui %[[UP]], %[[C5]] : index
// CHECK-NEXT: %[[UPREL:.*]] = arith.subi %[[UPB]], %[[FIRST]] : index
// CHECK-NEXT: %[[LASTREL:.*]] = arith.subi %[[COUNT]], %[[C1]] : index
// CHECK-NEXT: %[[UPLOW:.*]] = arith.maxsi %[[UPREL]], %[[C0]] : index
// CHECK-NEXT: %[[UPSEL:.*]] = arith.minsi %[[UPLOW]], %[[LASTREL]] : index
// CHECK-NEXT: %[[UPROW:.*]] = arith.remui %[[UP]], %[[C5]] : index
// CHECK-NEXT: %[[UPBLOCK:.*]] = arts.db_ref %[[VA]][%[[UPSEL]]]
// CHECK: %[[DOWN:.*]] = arith.addi %[[I]], %[[C1]] : index
// CHECK-NEXT: arith.divui %[[DOWN]], %[[C5]] : index
// The j loop has no division left.
// CHECK: scf.for %{{.*}} = %[[C0]] to %[[C16]] step %[[C1]] {
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: memref.load %[[UPBLOCK]][%[[UPROW]], %{{.*}}] : memref<?x16xf32>
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: } {arts.chunk_loop, arts.chunk_origin = 1 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
// DEBUG: [db-partitioning] {{.*}}db-partitioning.mlir:[[#]]:14: alloc memref<18x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=in partition=block halo rows [-1, +1] of its chunk
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=block
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent partition=block blocks of its chunk (offsets 0..0)
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @halo_launcher() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c18 = arith.constant 18 : index
  %one = arith.constant 1 : i32
  %r = arith.constant 0 : i32
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %e = arts.epoch {
    scf.for %k = %c0 to %c4 step %c1 {
      %s = arith.muli %k, %c4 : index
      %lo = arith.addi %c1, %s : index
      %end = arith.addi %lo, %c4 : index
      %hi = arith.minsi %end, %c17 : index
      %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
      %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
      arts.edt <task> <intranode> route(%r) (%qa, %qb : memref<?xmemref<18x16xf32>>, memref<?xmemref<18x16xf32>>) attributes {arts.team_workers = 4 : i64} {
      ^bb0(%va: memref<?xmemref<18x16xf32>>, %vb: memref<?xmemref<18x16xf32>>):
        %a = arts.db_ref %va[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
        %b = arts.db_ref %vb[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
        scf.for %i = %lo to %hi step %c1 {
          %i32 = arith.index_cast %i : index to i32
          scf.for %j = %c0 to %c16 step %c1 {
            %up32 = arith.subi %i32, %one : i32
            %up = arith.index_cast %up32 : i32 to index
            %down32 = arith.addi %i32, %one : i32
            %down = arith.index_cast %down32 : i32 to index
            %x = memref.load %a[%up, %j] : memref<18x16xf32>
            %y = memref.load %a[%i, %j] : memref<18x16xf32>
            %z = memref.load %a[%down, %j] : memref<18x16xf32>
            %xy = arith.addf %x, %y : f32
            %xyz = arith.addf %xy, %z : f32
            memref.store %xyz, %b[%i, %j] : memref<18x16xf32>
          }
        } {arts.chunk_loop, arts.chunk_origin = 1 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
        arts.db_release(%va : memref<?xmemref<18x16xf32>>)
        arts.db_release(%vb : memref<?xmemref<18x16xf32>>)
      }
    }
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  return
}
}

// -----

// The chunk [5, 9) of the same loop, index arithmetic in canonical form (`i + -1`, `1 + i`):
// its halo rows [4, 9] start in block 0 although the chunk starts in block 1 (rows 5-9), so
// the read takes blocks 0-1 and the write only block 1, shared with the next chunk (rows
// 9-12) as `concurrent`.
// CHECK-LABEL: func.func @halo_chunk_values
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: arts.db_acquire <in> ({{.*}}) offsets[%[[C0]]] sizes[%[[C2]]] partition(<block>)
// CHECK: arts.db_acquire <concurrent> ({{.*}}) offsets[%[[C1]]] sizes[%[[C1]]] partition(<block>)
// DEBUG: [db-partitioning] {{.*}}: acquire mode=in partition=block halo rows [-1, +1] of its chunk
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=block
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent partition=block blocks of its chunk (offsets 0..0)
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @halo_chunk_values() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c18 = arith.constant 18 : index
  %r = arith.constant 0 : i32
  %cm1 = arith.constant -1 : index
  %lo = arith.constant 5 : index
  %hi = arith.constant 9 : index
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  arts.edt <task> <intranode> route(%r) (%qa, %qb : memref<?xmemref<18x16xf32>>, memref<?xmemref<18x16xf32>>) attributes {arts.team_workers = 4 : i64} {
  ^bb0(%va: memref<?xmemref<18x16xf32>>, %vb: memref<?xmemref<18x16xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    scf.for %i = %lo to %hi step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %up = arith.addi %i, %cm1 : index
        %down = arith.addi %c1, %i : index
        %x = memref.load %a[%up, %j] : memref<18x16xf32>
        %z = memref.load %a[%down, %j] : memref<18x16xf32>
        %xz = arith.addf %x, %z : f32
        memref.store %xz, %b[%i, %j] : memref<18x16xf32>
      }
    } {arts.chunk_loop, arts.chunk_origin = 1 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
    arts.db_release(%va : memref<?xmemref<18x16xf32>>)
    arts.db_release(%vb : memref<?xmemref<18x16xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  return
}
}

// -----

// A write of row i + 1 computed in i32 is not taken as the chunk's rows: the written
// datablock stays coarse and the chunk tasks share it as `concurrent`.
// CHECK-LABEL: func.func @shifted_narrow_write
// CHECK: arts.db_alloc <inout> <write> <block>
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <coarse>
// CHECK: arts.db_acquire <in> ({{.*}}) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.db_acquire <concurrent> (%[[GB]], %[[PB]] : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
// DEBUG: [db-partitioning] {{.*}}: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=coarse (a chunk task writes it at an index not derived from its chunk)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent full-range (chunk tasks of one loop share the write)
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @shifted_narrow_write() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c18 = arith.constant 18 : index
  %one = arith.constant 1 : i32
  %r = arith.constant 0 : i32
  %lo = arith.constant 5 : index
  %hi = arith.constant 9 : index
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  arts.edt <task> <intranode> route(%r) (%qa, %qb : memref<?xmemref<18x16xf32>>, memref<?xmemref<18x16xf32>>) attributes {arts.team_workers = 4 : i64} {
  ^bb0(%va: memref<?xmemref<18x16xf32>>, %vb: memref<?xmemref<18x16xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    scf.for %i = %lo to %hi step %c1 {
      %i32 = arith.index_cast %i : index to i32
      scf.for %j = %c0 to %c16 step %c1 {
        %next32 = arith.addi %i32, %one : i32
        %next = arith.index_cast %next32 : i32 to index
        %x = memref.load %a[%i, %j] : memref<18x16xf32>
        memref.store %x, %b[%next, %j] : memref<18x16xf32>
      }
    } {arts.chunk_loop}
    arts.db_release(%va : memref<?xmemref<18x16xf32>>)
    arts.db_release(%vb : memref<?xmemref<18x16xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  return
}
}

// -----

// A halo read guarded by `i > 0` in the first chunk [0, 4): rows [-1, 3] clamp to block 0,
// and the guarded access picks its block where it runs, not at the top of the row.
// CHECK-LABEL: func.func @guarded_halo_read
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: arts.db_acquire <in> ({{.*}}) offsets[%[[C0]]] sizes[%[[C1]]] partition(<block>)
// CHECK: scf.if
// CHECK-NEXT: %[[UP:.*]] = arith.subi %{{.*}}, %[[C1]] : index
// CHECK-NEXT: arith.divui %[[UP]]
// CHECK-NEXT: arith.remui %[[UP]]
// CHECK-NEXT: arts.db_ref
// CHECK-NEXT: memref.load
// DEBUG: [db-partitioning] {{.*}}: acquire mode=in partition=block halo rows [-1, +0] of its chunk
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @guarded_halo_read() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c18 = arith.constant 18 : index
  %r = arith.constant 0 : i32
  %lo = arith.constant 0 : index
  %hi = arith.constant 4 : index
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  arts.edt <task> <intranode> route(%r) (%qa, %qb : memref<?xmemref<18x16xf32>>, memref<?xmemref<18x16xf32>>) attributes {arts.team_workers = 4 : i64} {
  ^bb0(%va: memref<?xmemref<18x16xf32>>, %vb: memref<?xmemref<18x16xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    scf.for %i = %lo to %hi step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %y = memref.load %a[%i, %j] : memref<18x16xf32>
        %inside = arith.cmpi sgt, %i, %c0 : index
        %v = scf.if %inside -> (f32) {
          %up = arith.subi %i, %c1 : index
          %x = memref.load %a[%up, %j] : memref<18x16xf32>
          scf.yield %x : f32
        } else {
          scf.yield %y : f32
        }
        memref.store %v, %b[%i, %j] : memref<18x16xf32>
      }
    } {arts.chunk_loop}
    arts.db_release(%va : memref<?xmemref<18x16xf32>>)
    arts.db_release(%vb : memref<?xmemref<18x16xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  return
}
}

// -----

// Two nodes: the block tables keep the owner rule of the chunks (block b on the node chunk b
// is routed to). The table read with a halo is cut in edges: shares of ceil(18 / 4) = 5 rows,
// the last one 3, each its first row, the rows between (3, and 1 in the last share) and its
// last row; the halo read of the chunk [5, 9) takes rows 4-9, blocks 2-5: share 0's last row,
// then share 1. The interior chunks are not the blocks here, but across nodes the write keeps
// `out`: chunks 1 and 2 take block 1 in turn from its owner's queue instead of sharing copies
// that would be merged byte by byte.
// CHECK-LABEL: func.func @distributed_halo_read
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}, %{{.*}}] {arts.edge_rows = array<i64: 0, 1, 1>, arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// CHECK: arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}, %{{.*}}] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// CHECK: arts.db_acquire <in> ({{.*}}) offsets[%[[C2]]] sizes[%[[C4]]] partition(<block>)
// CHECK: arts.db_acquire <out> ({{.*}}) offsets[%[[C1]]] sizes[%[[C1]]] partition(<block>)
// CHECK: arts.edt <task> <internode>
// DEBUG: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=block blocks=3 per share of 5 rows: edges of 1 and 3 rows between, the last share 3 rows (halo of 1 rows across nodes; 4 shares) block=memref<?x16xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 4)) % 2
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=in partition=block halo rows [-1, +1] of its chunk
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 4)) % 2
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @distributed_halo_read() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c18 = arith.constant 18 : index
  %one = arith.constant 1 : i32
  %r = arith.constant 0 : i32
  %lo = arith.constant 5 : index
  %hi = arith.constant 9 : index
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  arts.edt <task> <internode> route(%r) (%qa, %qb : memref<?xmemref<18x16xf32>>, memref<?xmemref<18x16xf32>>) attributes {arts.team_workers = 4 : i64} {
  ^bb0(%va: memref<?xmemref<18x16xf32>>, %vb: memref<?xmemref<18x16xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    scf.for %i = %lo to %hi step %c1 {
      %i32 = arith.index_cast %i : index to i32
      scf.for %j = %c0 to %c16 step %c1 {
        %up32 = arith.subi %i32, %one : i32
        %up = arith.index_cast %up32 : i32 to index
        %down32 = arith.addi %i32, %one : i32
        %down = arith.index_cast %down32 : i32 to index
        %x = memref.load %a[%up, %j] : memref<18x16xf32>
        %y = memref.load %a[%i, %j] : memref<18x16xf32>
        %z = memref.load %a[%down, %j] : memref<18x16xf32>
        %xy = arith.addf %x, %y : f32
        %xyz = arith.addf %xy, %z : f32
        memref.store %xyz, %b[%i, %j] : memref<18x16xf32>
      }
    } {arts.chunk_loop, arts.chunk_origin = 1 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
    arts.db_release(%va : memref<?xmemref<18x16xf32>>)
    arts.db_release(%vb : memref<?xmemref<18x16xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  return
}
}

// -----

// Two nodes, a stencil over 32 rows in 4 shares of 8 reading one row on each side: each share
// of the table it reads is cut in three blocks, its first row, the 6 rows between and its last
// row (`arts.edge_rows` = [dimension 0, 1 row, 6 rows between in the last share]), 12 blocks. Chunk 1 (rows 8-15) reads rows
// 7-16: blocks 2-6, of which only blocks 2 (row 7) and 6 (row 16) belong to its neighbours,
// one row each. The owner rule keeps every block on its chunk's node (3 blocks a share). The
// table it only writes keeps one block per share (chunk 1 writes block 1).
// CHECK-LABEL: func.func @distributed_halo_blocks
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : index
// CHECK: arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[C12]]] elementSizes[%[[C6]], %{{.*}}] {arts.edge_rows = array<i64: 0, 1, 6>, arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// CHECK: arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%[[C8]], %{{.*}}] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// CHECK: arts.db_acquire <in> ({{.*}}) offsets[%[[C2]]] sizes[%[[C5]]] partition(<block>)
// CHECK: arts.db_acquire <out> ({{.*}}) offsets[%[[C1]]] sizes[%[[C1]]] partition(<block>)
// A row's block: share s = row / 8, r = row mod 8, part (r >= 1) + (r >= 7), block 3s + part,
// and its row r - (0, 1 or 7).
// CHECK: arith.cmpi uge
// CHECK: arith.cmpi uge
// CHECK: arith.select
// DEBUG: [db-partitioning] {{.*}}: alloc memref<32x16xf32> -> partition=block blocks=3 per share of 8 rows: edges of 1 and 6 rows between (halo of 1 rows across nodes; 4 shares) block=memref<?x16xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 4)) % 2
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @distributed_halo_blocks() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1 : i32
  %r = arith.constant 0 : i32
  %lo = arith.constant 8 : index
  %hi = arith.constant 16 : index
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c32, %c16] : memref<?xi64>, memref<?xmemref<32x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c32, %c16] : memref<?xi64>, memref<?xmemref<32x16xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<32x16xf32>>) : memref<?xi64>, memref<?xmemref<32x16xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<32x16xf32>>) : memref<?xi64>, memref<?xmemref<32x16xf32>>
  arts.edt <task> <internode> route(%r) (%qa, %qb : memref<?xmemref<32x16xf32>>, memref<?xmemref<32x16xf32>>) attributes {arts.team_workers = 4 : i64} {
  ^bb0(%va: memref<?xmemref<32x16xf32>>, %vb: memref<?xmemref<32x16xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<32x16xf32>> -> memref<32x16xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<32x16xf32>> -> memref<32x16xf32>
    scf.for %i = %lo to %hi step %c1 {
      %i32 = arith.index_cast %i : index to i32
      scf.for %j = %c0 to %c16 step %c1 {
        %up32 = arith.subi %i32, %one : i32
        %up = arith.index_cast %up32 : i32 to index
        %down32 = arith.addi %i32, %one : i32
        %down = arith.index_cast %down32 : i32 to index
        %x = memref.load %a[%up, %j] : memref<32x16xf32>
        %y = memref.load %a[%i, %j] : memref<32x16xf32>
        %z = memref.load %a[%down, %j] : memref<32x16xf32>
        %xy = arith.addf %x, %y : f32
        %xyz = arith.addf %xy, %z : f32
        memref.store %xyz, %b[%i, %j] : memref<32x16xf32>
      }
    } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share, arts.chunk_trips = 32 : i64}
    arts.db_release(%va : memref<?xmemref<32x16xf32>>)
    arts.db_release(%vb : memref<?xmemref<32x16xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<32x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<32x16xf32>>)
  return
}
}

// -----

// Chunk 1 of a loop over all 18 rows from row 0, at the static share of 4 workers (rows
// 5-9), is exactly block 1 (B = 5): the write takes block 1 alone, as `out`.
// CHECK-LABEL: func.func @aligned_chunk_write
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[GA:.*]], %[[PA:.*]] = arts.db_alloc <inout> <write> <block>
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <block>
// CHECK: arts.db_acquire <in> (%[[GA]], %[[PA]] : {{.*}}) offsets[%[[C1]]] sizes[%[[C1]]] partition(<block>)
// CHECK: arts.db_acquire <out> (%[[GB]], %[[PB]] : {{.*}}) offsets[%[[C1]]] sizes[%[[C1]]] partition(<block>)
// DEBUG: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @aligned_chunk_write() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c18 = arith.constant 18 : index
  %r = arith.constant 0 : i32
  %lo = arith.constant 5 : index
  %hi = arith.constant 10 : index
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  arts.edt <task> <intranode> route(%r) (%qa, %qb : memref<?xmemref<18x16xf32>>, memref<?xmemref<18x16xf32>>) attributes {arts.team_workers = 4 : i64} {
  ^bb0(%va: memref<?xmemref<18x16xf32>>, %vb: memref<?xmemref<18x16xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    scf.for %i = %lo to %hi step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %x = memref.load %a[%i, %j] : memref<18x16xf32>
        %y = arith.addf %x, %x : f32
        memref.store %y, %b[%i, %j] : memref<18x16xf32>
      }
    } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share, arts.chunk_trips = 18 : i64}
    arts.db_release(%va : memref<?xmemref<18x16xf32>>)
    arts.db_release(%vb : memref<?xmemref<18x16xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  return
}
}

// -----

// The same loop whose chunks were raised above the static share (no
// arts.chunk_static_share: a light body given at least 7 rows a chunk): chunk 0 covers
// rows 0-6, blocks 0-1, and chunk 1 (rows 7-13) starts inside block 1, so the write is
// `concurrent`; the read is unaffected.
// CHECK-LABEL: func.func @raised_chunk_write
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[GA:.*]], %[[PA:.*]] = arts.db_alloc <inout> <write> <block>
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <block>
// CHECK: arts.db_acquire <in> (%[[GA]], %[[PA]] : {{.*}}) offsets[%[[C0]]] sizes[%[[C2]]] partition(<block>)
// CHECK: arts.db_acquire <concurrent> (%[[GB]], %[[PB]] : {{.*}}) offsets[%[[C0]]] sizes[%[[C2]]] partition(<block>)
// DEBUG: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<18x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent partition=block blocks of its chunk (offsets 0..0)
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @raised_chunk_write() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c18 = arith.constant 18 : index
  %r = arith.constant 0 : i32
  %lo = arith.constant 0 : index
  %hi = arith.constant 7 : index
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c18, %c16] : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qa_g, %qa = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>) : memref<?xi64>, memref<?xmemref<18x16xf32>>
  arts.edt <task> <intranode> route(%r) (%qa, %qb : memref<?xmemref<18x16xf32>>, memref<?xmemref<18x16xf32>>) attributes {arts.team_workers = 4 : i64} {
  ^bb0(%va: memref<?xmemref<18x16xf32>>, %vb: memref<?xmemref<18x16xf32>>):
    %a = arts.db_ref %va[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    %b = arts.db_ref %vb[%c0] : memref<?xmemref<18x16xf32>> -> memref<18x16xf32>
    scf.for %i = %lo to %hi step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %x = memref.load %a[%i, %j] : memref<18x16xf32>
        %y = arith.addf %x, %x : f32
        memref.store %y, %b[%i, %j] : memref<18x16xf32>
      }
    } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 18 : i64}
    arts.db_release(%va : memref<?xmemref<18x16xf32>>)
    arts.db_release(%vb : memref<?xmemref<18x16xf32>>)
  }
  arts.db_free(%ga, %pa : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<18x16xf32>>)
  return
}
}

// -----

// One node: b is written by the chunks of one loop and read transposed (every row) by the
// chunks of the next, so it stays one datablock and its writers share it as `concurrent`;
// c, only ever accessed by its own chunk, is still split and written as `out`.
// CHECK-LABEL: func.func @one_node_whole_read
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <coarse> route(%{{.*}}) sizes[%[[C1]]] elementSizes[%[[C16]], %[[C16]]] : memref<?xi64>, memref<?xmemref<16x16xf32>>
// CHECK: %[[GC:.*]], %[[PC:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[C4]]] elementSizes[%[[C4]], %[[C16]]] : memref<?xi64>, memref<?xmemref<?x16xf32>>
// CHECK: arts.epoch {
// CHECK-NEXT: arts.db_acquire <concurrent> (%[[GB]], %[[PB]] : memref<?xi64>, memref<?xmemref<16x16xf32>>) : memref<?xi64>, memref<?xmemref<16x16xf32>>
// CHECK: arts.epoch {
// CHECK-NEXT: arts.db_acquire <in> (%[[GB]], %[[PB]] : memref<?xi64>, memref<?xmemref<16x16xf32>>) : memref<?xi64>, memref<?xmemref<16x16xf32>>
// CHECK-NEXT: arts.db_acquire <out> (%[[GC]], %[[PC]] : {{.*}}) offsets[%[[C1]]] sizes[%[[C1]]] partition(<block>)
// DEBUG: [db-partitioning] {{.*}}: alloc memref<16x16xf32> -> partition=coarse (one node and a task reads every block)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent full-range (chunk tasks of one loop share the write)
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<16x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
module attributes {arts.nodes = 1 : i64, arts.threads = 4 : i64} {
func.func @one_node_whole_read() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %lo = arith.constant 4 : index
  %hi = arith.constant 8 : index
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c16, %c16] : memref<?xi64>, memref<?xmemref<16x16xf32>>
  %gc, %pc = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c16, %c16] : memref<?xi64>, memref<?xmemref<16x16xf32>>
  %e0 = arts.epoch {
    %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<16x16xf32>>) : memref<?xi64>, memref<?xmemref<16x16xf32>>
    arts.edt <task> <intranode> route(%r) (%qb : memref<?xmemref<16x16xf32>>) attributes {arts.team_workers = 4 : i64} {
    ^bb0(%vb: memref<?xmemref<16x16xf32>>):
      %b = arts.db_ref %vb[%c0] : memref<?xmemref<16x16xf32>> -> memref<16x16xf32>
      scf.for %i = %lo to %hi step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %f = arith.sitofp %i32 : i32 to f32
        scf.for %j = %c0 to %c16 step %c1 {
          memref.store %f, %b[%i, %j] : memref<16x16xf32>
        }
      } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
      arts.db_release(%vb : memref<?xmemref<16x16xf32>>)
    }
  }
  %e1 = arts.epoch {
    %qb_g, %qb = arts.db_acquire <in> (%gb, %pb : memref<?xi64>, memref<?xmemref<16x16xf32>>) : memref<?xi64>, memref<?xmemref<16x16xf32>>
    %qc_g, %qc = arts.db_acquire <out> (%gc, %pc : memref<?xi64>, memref<?xmemref<16x16xf32>>) : memref<?xi64>, memref<?xmemref<16x16xf32>>
    arts.edt <task> <intranode> route(%r) (%qb, %qc : memref<?xmemref<16x16xf32>>, memref<?xmemref<16x16xf32>>) attributes {arts.team_workers = 4 : i64} {
    ^bb0(%vb: memref<?xmemref<16x16xf32>>, %vc: memref<?xmemref<16x16xf32>>):
      %b = arts.db_ref %vb[%c0] : memref<?xmemref<16x16xf32>> -> memref<16x16xf32>
      %c = arts.db_ref %vc[%c0] : memref<?xmemref<16x16xf32>> -> memref<16x16xf32>
      scf.for %i = %lo to %hi step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %x = memref.load %b[%j, %i] : memref<16x16xf32>
          memref.store %x, %c[%i, %j] : memref<16x16xf32>
        }
      } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
      arts.db_release(%vb : memref<?xmemref<16x16xf32>>)
      arts.db_release(%vc : memref<?xmemref<16x16xf32>>)
    }
  }
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<16x16xf32>>)
  arts.db_free(%gc, %pc : memref<?xi64>, memref<?xmemref<16x16xf32>>)
  return
}
}

// -----

// The same loops on two nodes: blocks of b can live where their chunks run, so b is split
// and distributed, its writers keep `out` on their own block and the transposed read takes
// every block (`full_range`).
// CHECK-LABEL: func.func @two_node_whole_read
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[C4]]] elementSizes[%[[C4]], %{{.*}}] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// CHECK: %[[GC:.*]], %[[PC:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%[[C4]]] elementSizes[%[[C4]], %{{.*}}] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// CHECK: arts.epoch {
// CHECK-NEXT: arts.db_acquire <out> (%[[GB]], %[[PB]] : {{.*}}) offsets[%[[C1]]] sizes[%[[C1]]] partition(<block>)
// CHECK: arts.epoch {
// CHECK-NEXT: arts.db_acquire <in> (%[[GB]], %[[PB]] : {{.*}}) partition(<block>) {full_range}
// CHECK-NEXT: arts.db_acquire <out> (%[[GC]], %[[PC]] : {{.*}}) offsets[%[[C1]]] sizes[%[[C1]]] partition(<block>)
// DEBUG: [db-partitioning] {{.*}}: alloc memref<16x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 4)) % 2
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=in partition=block full-range (index not derived from the chunk)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NEXT: [db-partitioning] {{.*}}: alloc memref<16x16xf32> -> partition=block blocks=ceil(rows / 4) block=memref<?x16xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 4)) % 2
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @two_node_whole_read() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %lo = arith.constant 4 : index
  %hi = arith.constant 8 : index
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c16, %c16] : memref<?xi64>, memref<?xmemref<16x16xf32>>
  %gc, %pc = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c16, %c16] : memref<?xi64>, memref<?xmemref<16x16xf32>>
  %e0 = arts.epoch {
    %qb_g, %qb = arts.db_acquire <out> (%gb, %pb : memref<?xi64>, memref<?xmemref<16x16xf32>>) : memref<?xi64>, memref<?xmemref<16x16xf32>>
    arts.edt <task> <internode> route(%r) (%qb : memref<?xmemref<16x16xf32>>) attributes {arts.team_workers = 4 : i64} {
    ^bb0(%vb: memref<?xmemref<16x16xf32>>):
      %b = arts.db_ref %vb[%c0] : memref<?xmemref<16x16xf32>> -> memref<16x16xf32>
      scf.for %i = %lo to %hi step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %f = arith.sitofp %i32 : i32 to f32
        scf.for %j = %c0 to %c16 step %c1 {
          memref.store %f, %b[%i, %j] : memref<16x16xf32>
        }
      } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
      arts.db_release(%vb : memref<?xmemref<16x16xf32>>)
    }
  }
  %e1 = arts.epoch {
    %qb_g, %qb = arts.db_acquire <in> (%gb, %pb : memref<?xi64>, memref<?xmemref<16x16xf32>>) : memref<?xi64>, memref<?xmemref<16x16xf32>>
    %qc_g, %qc = arts.db_acquire <out> (%gc, %pc : memref<?xi64>, memref<?xmemref<16x16xf32>>) : memref<?xi64>, memref<?xmemref<16x16xf32>>
    arts.edt <task> <internode> route(%r) (%qb, %qc : memref<?xmemref<16x16xf32>>, memref<?xmemref<16x16xf32>>) attributes {arts.team_workers = 4 : i64} {
    ^bb0(%vb: memref<?xmemref<16x16xf32>>, %vc: memref<?xmemref<16x16xf32>>):
      %b = arts.db_ref %vb[%c0] : memref<?xmemref<16x16xf32>> -> memref<16x16xf32>
      %c = arts.db_ref %vc[%c0] : memref<?xmemref<16x16xf32>> -> memref<16x16xf32>
      scf.for %i = %lo to %hi step %c1 {
        scf.for %j = %c0 to %c16 step %c1 {
          %x = memref.load %b[%j, %i] : memref<16x16xf32>
          memref.store %x, %c[%i, %j] : memref<16x16xf32>
        }
      } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
      arts.db_release(%vb : memref<?xmemref<16x16xf32>>)
      arts.db_release(%vc : memref<?xmemref<16x16xf32>>)
    }
  }
  arts.db_free(%gb, %pb : memref<?xi64>, memref<?xmemref<16x16xf32>>)
  arts.db_free(%gc, %pc : memref<?xi64>, memref<?xmemref<16x16xf32>>)
  return
}
}

// -----

// Two loops write one datablock at a column, not a row: its leading dimension cannot be cut,
// so on one node it is cut along the columns the chunks write, each block laid out column
// first (`memref<?x8xf32>`: 2 columns of 8 rows). The first loop has two chunks of a column
// each, which share their block as `concurrent`; the second has one (its launch loop makes
// one trip), whose `inout` of both blocks then orders it after the first loop's chunks, so
// an epoch holding both needs no barrier between them.
// CHECK-LABEL: func.func @sole_chunk_write
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%c2] elementSizes[%c2, %c8] : memref<?xi64>, memref<?xmemref<?x8xf32>>
// CHECK: scf.for
// CHECK: arts.db_acquire <concurrent> (%[[G]], %[[P]] : {{.*}}) offsets[%{{.*}}] sizes[%{{.*}}] partition(<block>)
// CHECK: arts.db_acquire <inout> (%[[G]], %[[P]] : {{.*}}) offsets[%c0] sizes[%c2] partition(<block>)
// CHECK-NEXT: arts.edt <task>
// DEBUG: [db-partitioning] {{.*}}: alloc memref<8x4xf32> -> partition=block blocks=ceil(rows / 2) dim=1 (bytes the tasks move per run of their loops, estimated: dim 0 coarse, dim 1 0 bytes) block=memref<?x8xf32> distributed=no
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=inout: the loop's only chunk, no neighbour shares its blocks
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=inout partition=block blocks of its chunk (offsets 0..0)
// DEBUG-NEXT: [db-partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @sole_chunk_write() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c8, %c4] : memref<?xi64>, memref<?xmemref<8x4xf32>>
  %e = arts.epoch {
    scf.for %k = %c0 to %c2 step %c1 {
      %lo = arith.muli %k, %c2 : index
      %hi = arith.addi %lo, %c2 : index
      %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<8x4xf32>>) : memref<?xi64>, memref<?xmemref<8x4xf32>>
      arts.edt <task> <intranode> route(%r) (%q : memref<?xmemref<8x4xf32>>) attributes {arts.team_workers = 2 : i64} {
      ^bb0(%v: memref<?xmemref<8x4xf32>>):
        %a = arts.db_ref %v[%c0] : memref<?xmemref<8x4xf32>> -> memref<8x4xf32>
        scf.for %i = %lo to %hi step %c1 {
          scf.for %j = %c0 to %c8 step %c1 {
            memref.store %one, %a[%j, %i] : memref<8x4xf32>
          }
        } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 4 : i64}
        arts.db_release(%v : memref<?xmemref<8x4xf32>>)
      }
    } {arts.launch_loop}
    scf.for %k = %c0 to %c1 step %c1 {
      %lo = arith.muli %k, %c4 : index
      %hi = arith.addi %lo, %c4 : index
      %q_g, %q = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<8x4xf32>>) : memref<?xi64>, memref<?xmemref<8x4xf32>>
      arts.edt <task> <intranode> route(%r) (%q : memref<?xmemref<8x4xf32>>) attributes {arts.team_workers = 2 : i64} {
      ^bb0(%v: memref<?xmemref<8x4xf32>>):
        %a = arts.db_ref %v[%c0] : memref<?xmemref<8x4xf32>> -> memref<8x4xf32>
        scf.for %i = %lo to %hi step %c1 {
          scf.for %j = %c0 to %c8 step %c1 {
            %x = memref.load %a[%j, %i] : memref<8x4xf32>
            %y = arith.addf %x, %one : f32
            memref.store %y, %a[%j, %i] : memref<8x4xf32>
          }
        } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 4 : i64}
        arts.db_release(%v : memref<?xmemref<8x4xf32>>)
      }
    } {arts.launch_loop}
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<8x4xf32>>)
  return
}
}

// -----

// Two nodes, but the allocation runs once per step of a time loop, and a helper's allocation
// runs once per call (two calls): initPerNode makes a distributed table's blocks once per run,
// and the first db_free would destroy the blocks the next step reuses. Both tables stay on
// node 0, blocked as on one node.
// CHECK-LABEL: func.func @fill_rows
// CHECK: arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}] :
// CHECK-LABEL: func.func @main
// CHECK: scf.for
// CHECK: arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}] :
// DEBUG: [db-partitioning] {{.*}}: alloc memref<16xf64> -> partition=block blocks=ceil(rows / 4) block=memref<?xf64> distributed=no (the allocation may run more than once: its function 'fill_rows' is called from more than one place, and initPerNode makes its blocks once)
// DEBUG: [db-partitioning] {{.*}}: alloc memref<16xf64> -> partition=block blocks=ceil(rows / 4) block=memref<?xf64> distributed=no (the allocation may run more than once: it is inside a loop (scf.for), and initPerNode makes its blocks once)
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @fill_rows() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c16] : memref<?xi64>, memref<?xmemref<16xf64>>
  %e = arts.epoch {
    scf.for %k = %c0 to %c4 step %c1 {
      %lo = arith.muli %k, %c4 : index
      %hi = arith.addi %lo, %c4 : index
      %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<16xf64>>) : memref<?xi64>, memref<?xmemref<16xf64>>
      arts.edt <task> <internode> route(%r) (%q : memref<?xmemref<16xf64>>) attributes {arts.team_workers = 4 : i64} {
      ^bb0(%v: memref<?xmemref<16xf64>>):
        %a = arts.db_ref %v[%c0] : memref<?xmemref<16xf64>> -> memref<16xf64>
        scf.for %i = %lo to %hi step %c1 {
          memref.store %one, %a[%i] : memref<16xf64>
        } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
        arts.db_release(%v : memref<?xmemref<16xf64>>)
      }
    } {arts.launch_loop}
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<16xf64>>)
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  func.call @fill_rows() : () -> ()
  func.call @fill_rows() : () -> ()
  scf.for %t = %c0 to %c3 step %c1 {
    %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c16] : memref<?xi64>, memref<?xmemref<16xf64>>
    %e = arts.epoch {
      scf.for %k = %c0 to %c4 step %c1 {
        %lo = arith.muli %k, %c4 : index
        %hi = arith.addi %lo, %c4 : index
        %q_g, %q = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<16xf64>>) : memref<?xi64>, memref<?xmemref<16xf64>>
        arts.edt <task> <internode> route(%r) (%q : memref<?xmemref<16xf64>>) attributes {arts.team_workers = 4 : i64} {
        ^bb0(%v: memref<?xmemref<16xf64>>):
          %a = arts.db_ref %v[%c0] : memref<?xmemref<16xf64>> -> memref<16xf64>
          scf.for %i = %lo to %hi step %c1 {
            memref.store %one, %a[%i] : memref<16xf64>
          } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_static_share, arts.chunk_trips = 16 : i64}
          arts.db_release(%v : memref<?xmemref<16xf64>>)
        }
      } {arts.launch_loop}
    }
    arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<16xf64>>)
  }
  return
}
}
