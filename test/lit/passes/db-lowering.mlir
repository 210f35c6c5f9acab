// arts-db-lowering: allocations become GUID and payload tables filled block by block with
// reserve_guid/db_create, db_ref a load from its table, db_free a db_destroy per block.
// The convert part is checked on the pass output re-parsed by the driver and on the debug
// channel; the invalid part with --verify-diagnostics.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-db-lowering)' | carts-opt --split-input-file \
// RUN:   | FileCheck %s --implicit-check-not=arts.db_alloc --implicit-check-not=arts.db_ref --implicit-check-not=arts.db_free
// RUN: carts-opt %t/convert.mlir --pass-pipeline='builtin.module(arts-db-lowering)' --debug-only=db-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-db-lowering)' --verify-diagnostics
// Distributed allocations: initPerNode, the globals, host shadows, syncs and frees; the owner
// routes once canonicalize has folded the rule's constants.
// RUN: carts-opt %t/distributed.mlir --pass-pipeline='builtin.module(arts-db-lowering)' | carts-opt \
// RUN:   | FileCheck %s --check-prefix=DIST --implicit-check-not=arts.db_alloc --implicit-check-not=arts.db_sync --implicit-check-not=arts.db_free
// RUN: carts-opt %t/distributed.mlir --pass-pipeline='builtin.module(arts-db-lowering,canonicalize)' | FileCheck %s --check-prefix=ROUTE
// RUN: carts-opt %t/distributed.mlir --pass-pipeline='builtin.module(arts-db-lowering)' --debug-only=db-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=DLOG
// The flush of a table on node 0 (not distributed): a put of each block's payload onto itself
// in one epoch, with a constant byte count or one computed at run time (checked against 4 GiB).
// RUN: carts-opt %t/node-zero.mlir --pass-pipeline='builtin.module(arts-db-lowering)' | carts-opt \
// RUN:   | FileCheck %s --check-prefix=NODE0 --implicit-check-not=arts.db_alloc --implicit-check-not=arts.db_sync
// RUN: carts-opt %t/node-zero.mlir --pass-pipeline='builtin.module(arts-db-lowering)' --debug-only=db-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=ZLOG
// The share of a table on node 0: a db_share per block, of any size (no 4 GiB check), nothing
// waited for.
// RUN: carts-opt %t/share.mlir --pass-pipeline='builtin.module(arts-db-lowering)' | carts-opt \
// RUN:   | FileCheck %s --check-prefix=SHARE --implicit-check-not=arts.db_sync --implicit-check-not=arts.create_epoch --implicit-check-not=exit
// RUN: carts-opt %t/share.mlir --pass-pipeline='builtin.module(arts-db-lowering)' --debug-only=db-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=SLOG
// Edge blocks (a stencil's table cut in a share's first row, the rows between and its last
// row): each block is created, flushed and fetched at its own size.
// RUN: carts-opt %t/edges.mlir --pass-pipeline='builtin.module(arts-db-lowering,canonicalize)' | FileCheck %s --check-prefix=EDGE

//--- convert.mlir

// A block table of %nb blocks of %B x %m floats: one GUID on the allocation's route and one
// datablock of B*m*4 bytes per block; the payload memref is built from the raw pointer with
// row-major strides (m, 1). Host code reads payloads straight from the table.
// CHECK-LABEL: func.func @block_table
// CHECK-SAME: (%[[NB:.*]]: index, %[[B:.*]]: index, %[[M:.*]]: index, %[[R:.*]]: i32)
// CHECK: %[[GUIDS:.*]] = memref.alloc(%[[NB]]) : memref<?xi64>
// CHECK-NEXT: %[[PTRS:.*]] = memref.alloc(%[[NB]]) : memref<?xmemref<?x?xf32>>
// CHECK-NEXT: %[[ELEMS:.*]] = arith.muli %[[B]], %[[M]] : index
// CHECK-NEXT: %[[ELEMS64:.*]] = arith.index_cast %[[ELEMS]] : index to i64
// CHECK-NEXT: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %[[ELEMS64]], %[[FOUR]] : i64
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[NB]] step
// CHECK-NEXT: %[[G:.*]] = arts.reserve_guid <write> route(%[[R]])
// CHECK-NEXT: %[[RAW:.*]] = arts.db_create %[[G]], %[[BYTES]] : !llvm.ptr
// CHECK-NEXT: memref.store %[[G]], %[[GUIDS]][%[[I]]] : memref<?xi64>
// CHECK-NEXT: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT: %[[D0:.*]] = llvm.insertvalue %[[RAW]], %[[U]][0]
// CHECK-NEXT: %[[D1:.*]] = llvm.insertvalue %[[RAW]], %[[D0]][1]
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: %[[D2:.*]] = llvm.insertvalue %[[ZERO]], %[[D1]][2]
// CHECK-NEXT: %[[B64:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK-NEXT: %[[M64:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[D3:.*]] = llvm.insertvalue %[[M64]], %[[D2]][3, 1]
// CHECK-NEXT: %[[D4:.*]] = llvm.insertvalue %[[ONE]], %[[D3]][4, 1]
// CHECK-NEXT: %[[D5:.*]] = llvm.insertvalue %[[B64]], %[[D4]][3, 0]
// CHECK-NEXT: %[[D6:.*]] = llvm.insertvalue %[[M64]], %[[D5]][4, 0]
// CHECK-NEXT: %[[VIEW:.*]] = builtin.unrealized_conversion_cast %[[D6]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xf32>
// CHECK-NEXT: memref.store %[[VIEW]], %[[PTRS]][%[[I]]] : memref<?xmemref<?x?xf32>>
// CHECK-NEXT: }
// CHECK-NEXT: %[[BLK:.*]] = memref.load %[[PTRS]][%{{.*}}] : memref<?xmemref<?x?xf32>>
// CHECK-NEXT: memref.store %{{.*}}, %[[BLK]][%{{.*}}, %{{.*}}] : memref<?x?xf32>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[NB]] step
// CHECK-NEXT: %[[GJ:.*]] = memref.load %[[GUIDS]][%[[J]]] : memref<?xi64>
// CHECK-NEXT: arts.db_destroy %[[GJ]]
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[GUIDS]] : memref<?xi64>
// CHECK-NEXT: memref.dealloc %[[PTRS]] : memref<?xmemref<?x?xf32>>
// CHECK-NEXT: return
func.func @block_table(%nb: index, %B: index, %m: index, %r: i32) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  // DEBUG: [db-lowering] {{.*}}convert.mlir:[[@LINE+1]]:12: db_alloc <block> -> 1-d table of memref<?x?xf32> blocks, reserve_guid <write> element_bytes=4
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%nb] elementSizes[%B, %m]
      : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %blk = arts.db_ref %p[%c0] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
  memref.store %v, %blk[%c0, %c0] : memref<?x?xf32>
  // DEBUG: [db-lowering] {{.*}}convert.mlir:[[@LINE+1]]:3: db_free -> db_destroy per block, dealloc of both tables
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  return
}

// -----

// A static 2 x 3 table of 16-double blocks of a read-only allocation: a two-loop nest,
// read GUIDs, a constant 128-byte size, static table types kept.
// CHECK-LABEL: func.func @static_2d_table
// CHECK: %[[GUIDS:.*]] = memref.alloc() : memref<2x3xi64>
// CHECK-NEXT: %[[PTRS:.*]] = memref.alloc() : memref<2x3xmemref<16xf64>>
// CHECK: %[[BYTES:.*]] = arith.constant 128 : i64
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[G:.*]] = arts.reserve_guid <read> route(%{{.*}})
// CHECK-NEXT: arts.db_create %[[G]], %[[BYTES]] : !llvm.ptr
// CHECK-NEXT: memref.store %[[G]], %[[GUIDS]][%[[I]], %[[J]]] : memref<2x3xi64>
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<16xf64>
// CHECK: memref.store %{{.*}}, %[[PTRS]][%[[I]], %[[J]]] : memref<2x3xmemref<16xf64>>
// CHECK: %[[BLK:.*]] = memref.load %[[PTRS]][%{{.*}}, %{{.*}}] : memref<2x3xmemref<16xf64>>
// CHECK-NEXT: memref.load %[[BLK]][%{{.*}}] : memref<16xf64>
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.load %[[GUIDS]]
// CHECK-NEXT: arts.db_destroy
func.func @static_2d_table(%r: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %g, %p = arts.db_alloc <in> <read> <block> route(%r) sizes[%c2, %c3] elementSizes[%c16]
      : memref<2x3xi64>, memref<2x3xmemref<16xf64>>
  %b = arts.db_ref %p[%c0, %c2] : memref<2x3xmemref<16xf64>> -> memref<16xf64>
  %v = memref.load %b[%c0] : memref<16xf64>
  arts.db_free(%g, %p : memref<2x3xi64>, memref<2x3xmemref<16xf64>>)
  return %v : f64
}

// -----

// Fine-grained scalars (rank-0 blocks of i32): 4 bytes each, a descriptor without sizes.
// CHECK-LABEL: func.func @fine_grained_scalars
// CHECK: %[[BYTES:.*]] = arith.constant 4 : i64
// CHECK: arts.db_create %{{.*}}, %[[BYTES]] : !llvm.ptr
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64)> to memref<i32>
func.func @fine_grained_scalars(%n: index, %r: i32) {
  %g, %p = arts.db_alloc <inout> <write> <fine_grained> route(%r) sizes[%n] elementSizes[]
      : memref<?xi64>, memref<?xmemref<i32>>
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<i32>>)
  return
}

// -----

// A datablock holding a pointer variable (a memref<?xf32> descriptor): 5 words of 8 bytes.
// CHECK-LABEL: func.func @pointer_cell
// CHECK: %[[BYTES:.*]] = arith.constant 40 : i64
// CHECK: arts.db_create %{{.*}}, %[[BYTES]] : !llvm.ptr
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64)> to memref<memref<?xf32>>
func.func @pointer_cell(%r: i32) {
  %c1 = arith.constant 1 : index
  %g, %p = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[]
      : memref<?xi64>, memref<?xmemref<memref<?xf32>>>
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<memref<?xf32>>>)
  return
}

// -----

// db_ref on a view table inside an outlined task is a load as well.
// CHECK-LABEL: func.func private @__arts_edt_0
// CHECK: %[[VIEW:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xmemref<?xf32>>
// CHECK-NEXT: memref.load %[[VIEW]][%{{.*}}] : memref<?xf32>
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %views = memref.alloc(%c1) : memref<?xmemref<?xf32>>
  %b = arts.db_ref %views[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  %x = memref.load %b[%c0] : memref<?xf32>
  memref.dealloc %views : memref<?xmemref<?xf32>>
  return
}

//--- distributed.mlir

// Two distributed tables of 4 blocks of 2 x 8 floats (64 bytes). With 2 nodes of 1 worker,
// chunksPerWorker = ceil(4 / 2) = 2 and block b is owned by floor(b / 2) % 2: [0, 0, 1, 1];
// with 2 workers per node it is floor(b / 1) % 2: [0, 1, 0, 1]. initPerNode reserves every
// block on its owner, creates it (payload on the owner only) and records GUID and pointer in
// the globals; mainBody copies the GUIDs and gives each block another node owns (null
// pointer) a zeroed shadow. A flush puts and a fetch gets every block's bytes in one epoch;
// the free destroys the blocks owned here and frees the shadows.
// DIST: memref.global "private" @__arts_db_guids_0 : memref<4xi64> = dense<0>
// DIST-NEXT: memref.global "private" @__arts_db_ptrs_0 : memref<4xi64> = dense<0>
// DIST-NEXT: memref.global "private" @__arts_db_guids_1 : memref<4xi64> = dense<0>
// DIST-NEXT: memref.global "private" @__arts_db_ptrs_1 : memref<4xi64> = dense<0>
// DIST-LABEL: func.func @distributed
// DIST: %[[GUIDS:.*]] = memref.alloc(%[[N:.*]]) : memref<?xi64>
// DIST-NEXT: %[[PTRS:.*]] = memref.alloc(%[[N]]) : memref<?xmemref<?x8xf32>>
// DIST-NEXT: %[[HG:.*]] = memref.get_global @__arts_db_guids_0 : memref<4xi64>
// DIST-NEXT: %[[HP:.*]] = memref.get_global @__arts_db_ptrs_0 : memref<4xi64>
// DIST-NEXT: %[[BYTES:.*]] = arith.constant 64 : i64
// DIST: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// DIST-NEXT: %[[G:.*]] = memref.load %[[HG]][%[[I]]] : memref<4xi64>
// DIST-NEXT: memref.store %[[G]], %[[GUIDS]][%[[I]]] : memref<?xi64>
// DIST-NEXT: %[[RAW:.*]] = memref.load %[[HP]][%[[I]]] : memref<4xi64>
// DIST-NEXT: %[[NULL:.*]] = arith.constant 0 : i64
// DIST-NEXT: %[[REMOTE:.*]] = arith.cmpi eq, %[[RAW]], %[[NULL]] : i64
// DIST-NEXT: %[[BLK:.*]] = scf.if %[[REMOTE]] -> (memref<?x8xf32>) {
// DIST-NEXT: %[[SHADOW:.*]] = memref.alloc(%{{.*}}) : memref<?x8xf32>
// DIST-NEXT: %[[SI:.*]] = memref.extract_aligned_pointer_as_index %[[SHADOW]]
// DIST-NEXT: %[[SI64:.*]] = arith.index_cast %[[SI]] : index to i64
// DIST-NEXT: %[[SP:.*]] = llvm.inttoptr %[[SI64]] : i64 to !llvm.ptr
// DIST-NEXT: %[[ZERO8:.*]] = arith.constant 0 : i8
// DIST-NEXT: "llvm.intr.memset"(%[[SP]], %[[ZERO8]], %[[BYTES]]) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
// DIST-NEXT: scf.yield %[[SHADOW]] : memref<?x8xf32>
// DIST-NEXT: } else {
// DIST-NEXT: %[[PAYLOAD:.*]] = llvm.inttoptr %[[RAW]] : i64 to !llvm.ptr
// DIST-NEXT: llvm.mlir.undef
// DIST-NEXT: llvm.insertvalue %[[PAYLOAD]]
// DIST: %[[VIEW:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<?x8xf32>
// DIST-NEXT: scf.yield %[[VIEW]] : memref<?x8xf32>
// DIST-NEXT: }
// DIST-NEXT: memref.store %[[BLK]], %[[PTRS]][%[[I]]] : memref<?xmemref<?x8xf32>>
// DIST-NEXT: }
// Host code reads a block straight from the payload table (owner payload or shadow).
// DIST: %[[HB:.*]] = memref.load %[[PTRS]][%{{.*}}] : memref<?xmemref<?x8xf32>>
// DIST-NEXT: memref.store %{{.*}}, %[[HB]][%{{.*}}, %{{.*}}] : memref<?x8xf32>
// DIST: %[[E:.*]] = arts.create_epoch
// DIST-NEXT: %[[OFF:.*]] = arith.constant 0 : i32
// DIST-NEXT: %[[LEN:.*]] = arith.constant 64 : i32
// DIST: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// DIST-NEXT: %[[GJ:.*]] = memref.load %[[GUIDS]][%[[J]]] : memref<?xi64>
// DIST-NEXT: %[[VJ:.*]] = memref.load %[[PTRS]][%[[J]]] : memref<?xmemref<?x8xf32>>
// DIST-NEXT: %[[AJ:.*]] = memref.extract_aligned_pointer_as_index %[[VJ]]
// DIST-NEXT: %[[AJ64:.*]] = arith.index_cast %[[AJ]] : index to i64
// DIST-NEXT: %[[PJ:.*]] = llvm.inttoptr %[[AJ64]] : i64 to !llvm.ptr
// DIST-NEXT: arts.put_in_db_epoch %[[PJ]], epoch(%[[E]]), db(%[[GJ]]), offset(%[[OFF]]), bytes(%[[LEN]]) : !llvm.ptr
// DIST-NEXT: }
// DIST-NEXT: arts.wait_on_epoch %[[E]]
// DIST: %[[E2:.*]] = arts.create_epoch
// DIST: scf.for
// DIST: arts.get_from_db_epoch %{{.*}}, epoch(%[[E2]]), db(%{{.*}}), offset(%{{.*}}), bytes(%{{.*}}) : !llvm.ptr
// DIST: arts.wait_on_epoch %[[E2]]
// DIST: %[[FP:.*]] = memref.get_global @__arts_db_ptrs_0 : memref<4xi64>
// DIST: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// DIST-NEXT: %[[FRAW:.*]] = memref.load %[[FP]][%[[K]]] : memref<4xi64>
// DIST: %[[FREMOTE:.*]] = arith.cmpi eq, %[[FRAW]], %{{.*}} : i64
// DIST-NEXT: scf.if %[[FREMOTE]] {
// DIST-NEXT: %[[FS:.*]] = memref.load %[[PTRS]][%[[K]]] : memref<?xmemref<?x8xf32>>
// DIST-NEXT: memref.dealloc %[[FS]] : memref<?x8xf32>
// DIST-NEXT: } else {
// DIST-NEXT: %[[FG:.*]] = memref.load %[[GUIDS]][%[[K]]] : memref<?xi64>
// DIST-NEXT: arts.db_destroy %[[FG]]
// DIST-NEXT: }
// DIST-NEXT: }
// DIST-NEXT: memref.dealloc %[[GUIDS]] : memref<?xi64>
// DIST-NEXT: memref.dealloc %[[PTRS]] : memref<?xmemref<?x8xf32>>
// DIST: %[[GUIDS1:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// DIST: memref.get_global @__arts_db_guids_1
// DIST: memref.dealloc %[[GUIDS1]] : memref<?xi64>
// DIST-LABEL: func.func @initPerNode(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: !llvm.ptr) {
// DIST: %[[IG:.*]] = memref.get_global @__arts_db_guids_0 : memref<4xi64>
// DIST-NEXT: %[[IP:.*]] = memref.get_global @__arts_db_ptrs_0 : memref<4xi64>
// DIST: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// DIST: %[[R:.*]] = arith.index_cast %{{.*}} : index to i32
// DIST-NEXT: %[[RG:.*]] = arts.reserve_guid <write> route(%[[R]])
// DIST-NEXT: %[[RP:.*]] = arts.db_create %[[RG]], %{{.*}} {distributed} : !llvm.ptr
// DIST-NEXT: memref.store %[[RG]], %[[IG]][%[[B]]] : memref<4xi64>
// DIST-NEXT: %[[RPI:.*]] = llvm.ptrtoint %[[RP]] : !llvm.ptr to i64
// DIST-NEXT: memref.store %[[RPI]], %[[IP]][%[[B]]] : memref<4xi64>
// DIST-NEXT: }
// DIST: memref.get_global @__arts_db_guids_1
// DIST: arts.reserve_guid <read> route
// DIST: return

// After canonicalize the rule's constants are folded: route = (b / 2) % 2 for the first
// table, b % 2 for the second.
// ROUTE-LABEL: func.func @initPerNode
// ROUTE-DAG: %[[C2:.*]] = arith.constant 2 : index
// ROUTE: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// ROUTE-NEXT: %[[W:.*]] = arith.divui %[[B]], %[[C2]] : index
// ROUTE-NEXT: %[[R:.*]] = arith.remui %[[W]], %[[C2]] : index
// ROUTE-NEXT: %[[R32:.*]] = arith.index_cast %[[R]] : index to i32
// ROUTE-NEXT: arts.reserve_guid <write> route(%[[R32]])
// ROUTE: scf.for %[[B2:.*]] = %{{.*}} to %{{.*}} step
// ROUTE-NEXT: %[[R2:.*]] = arith.remui %[[B2]], %[[C2]] : index
// ROUTE-NEXT: %[[R232:.*]] = arith.index_cast %[[R2]] : index to i32
// ROUTE-NEXT: arts.reserve_guid <read> route(%[[R232]])
module {
func.func @distributed(%v: f32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = arith.constant 0 : i32
  // DLOG: [db-lowering] {{.*}}distributed.mlir:[[@LINE+1]]:12: db_alloc <block> distributed -> 4 blocks of 64 bytes reserved in initPerNode, owners [0, 0, 1, 1] (nodes=2 workers_per_node=1), tables @__arts_db_guids_0 @__arts_db_ptrs_0, host shadows for blocks owned elsewhere
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c4] elementSizes[%c2, %c8]
      {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?x8xf32>>
  %blk = arts.db_ref %p[%c2] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
  memref.store %v, %blk[%c0, %c0] : memref<?x8xf32>
  // DLOG: [db-lowering] {{.*}}distributed.mlir:[[@LINE+1]]:3: db_sync <flush> -> put_in_db_epoch of 64 bytes per block (4 blocks) in one epoch, then wait_on_epoch
  arts.db_sync <flush> (%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  // DLOG: [db-lowering] {{.*}}distributed.mlir:[[@LINE+1]]:3: db_sync <fetch> -> get_from_db_epoch of 64 bytes per block (4 blocks) in one epoch, then wait_on_epoch
  arts.db_sync <fetch> (%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  // DLOG: [db-lowering] {{.*}}distributed.mlir:[[@LINE+1]]:3: db_free of a distributed allocation -> db_destroy of the blocks owned here, dealloc of the host shadows and both tables
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  // DLOG: [db-lowering] {{.*}}distributed.mlir:[[@LINE+1]]:14: db_alloc <block> distributed -> 4 blocks of 64 bytes reserved in initPerNode, owners [0, 1, 0, 1] (nodes=2 workers_per_node=2), tables @__arts_db_guids_1 @__arts_db_ptrs_1, host shadows for blocks owned elsewhere
  %g1, %p1 = arts.db_alloc <in> <read> <block> route(%r) sizes[%c4] elementSizes[%c2, %c8]
      {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?x8xf32>>
  arts.db_free(%g1, %p1 : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  return
}
}

//--- node-zero.mlir

// A coarse table of one 4 x 2 float block (32 bytes), then a 2 x 2 table of blocks of %n doubles.
// The run-time check reuses the program's own declarations of stderr, fprintf and exit.
// NODE0: llvm.mlir.global internal constant @__arts_error_text("carts: error: {{.*}}node-zero.mlir:[[#DYN:]]:14: a block of this datablock is %llu bytes, over the 32-bit byte count of the put that flushes the host's writes to it\0A\00")
// NODE0: llvm.mlir.global external @stderr()
// NODE0-NOT: @stderr
// NODE0: llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
// NODE0-NOT: @fprintf(
// NODE0: func.func private @exit(i32)
// NODE0-NOT: func.func private @exit
// NODE0-LABEL: func.func @node_zero
// NODE0: %[[GUIDS:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// NODE0-NEXT: %[[PTRS:.*]] = memref.alloc(%{{.*}}) : memref<?xmemref<?x2xf32>>
// Host code writes the payload in place.
// NODE0: %[[HB:.*]] = memref.load %[[PTRS]][%{{.*}}] : memref<?xmemref<?x2xf32>>
// NODE0-NEXT: memref.store %{{.*}}, %[[HB]][%{{.*}}, %{{.*}}] : memref<?x2xf32>
// NODE0-NEXT: %[[E:.*]] = arts.create_epoch
// NODE0-NEXT: %[[OFF:.*]] = arith.constant 0 : i32
// NODE0-NEXT: %[[LEN:.*]] = arith.constant 32 : i32
// NODE0: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// NODE0-NEXT: %[[GJ:.*]] = memref.load %[[GUIDS]][%[[J]]] : memref<?xi64>
// NODE0-NEXT: %[[VJ:.*]] = memref.load %[[PTRS]][%[[J]]] : memref<?xmemref<?x2xf32>>
// NODE0-NEXT: %[[AJ:.*]] = memref.extract_aligned_pointer_as_index %[[VJ]]
// NODE0-NEXT: %[[AJ64:.*]] = arith.index_cast %[[AJ]] : index to i64
// NODE0-NEXT: %[[PJ:.*]] = llvm.inttoptr %[[AJ64]] : i64 to !llvm.ptr
// NODE0-NEXT: arts.put_in_db_epoch %[[PJ]], epoch(%[[E]]), db(%[[GJ]]), offset(%[[OFF]]), bytes(%[[LEN]]) : !llvm.ptr
// NODE0-NEXT: }
// NODE0-NEXT: arts.wait_on_epoch %[[E]]
// NODE0: %[[GUIDS2:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xi64>
// NODE0-NEXT: %[[PTRS2:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xmemref<?xf64>>
// NODE0-NEXT: %[[N64:.*]] = arith.index_cast %{{.*}} : index to i64
// NODE0-NEXT: %[[EIGHT:.*]] = arith.constant 8 : i64
// NODE0-NEXT: %[[BYTES:.*]] = arith.muli %[[N64]], %[[EIGHT]] : i64
// NODE0: arts.db_create %{{.*}}, %[[BYTES]] : !llvm.ptr
// NODE0: %[[MAX:.*]] = arith.constant 4294967295 : i64
// NODE0-NEXT: %[[BIG:.*]] = arith.cmpi ugt, %[[BYTES]], %[[MAX]] : i64
// NODE0-NEXT: scf.if %[[BIG]] {
// NODE0-NEXT: %[[SA:.*]] = llvm.mlir.addressof @stderr : !llvm.ptr
// NODE0-NEXT: %[[S:.*]] = llvm.load %[[SA]] : !llvm.ptr -> !llvm.ptr
// NODE0-NEXT: %[[T:.*]] = llvm.mlir.addressof @__arts_error_text : !llvm.ptr
// NODE0-NEXT: llvm.call @fprintf(%[[S]], %[[T]], %[[BYTES]])
// NODE0-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// NODE0-NEXT: call @exit(%[[ONE]]) : (i32) -> ()
// NODE0-NEXT: }
// NODE0-NEXT: %[[E2:.*]] = arts.create_epoch
// NODE0-NEXT: %[[OFF2:.*]] = arith.constant 0 : i32
// NODE0-NEXT: %[[LEN2:.*]] = arith.trunci %[[BYTES]] : i64 to i32
// NODE0: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// NODE0-NEXT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// NODE0-NEXT: %[[GK:.*]] = memref.load %[[GUIDS2]][%[[I]], %[[K]]] : memref<?x?xi64>
// NODE0-NEXT: %[[VK:.*]] = memref.load %[[PTRS2]][%[[I]], %[[K]]] : memref<?x?xmemref<?xf64>>
// NODE0: arts.put_in_db_epoch %{{.*}}, epoch(%[[E2]]), db(%[[GK]]), offset(%[[OFF2]]), bytes(%[[LEN2]]) : !llvm.ptr
// NODE0-NEXT: }
// NODE0-NEXT: }
// NODE0-NEXT: arts.wait_on_epoch %[[E2]]
// NODE0: arts.db_destroy
// NODE0: arts.db_destroy
// NODE0: return
module {
llvm.mlir.global external @stderr() {addr_space = 0 : i32} : !llvm.ptr
llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
func.func private @exit(i32)
func.func @node_zero(%v: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4, %c2]
      : memref<?xi64>, memref<?xmemref<?x2xf32>>
  %blk = arts.db_ref %p[%c0] : memref<?xmemref<?x2xf32>> -> memref<?x2xf32>
  memref.store %v, %blk[%c0, %c0] : memref<?x2xf32>
  // ZLOG: [db-lowering] {{.*}}node-zero.mlir:[[@LINE+1]]:3: db_sync <flush> of a table on node 0 -> put_in_db_epoch of each block's payload onto itself (32 bytes per block) in one epoch, then wait_on_epoch: nothing copied, a new version per block
  arts.db_sync <flush> (%g, %p : memref<?xi64>, memref<?xmemref<?x2xf32>>)
  %g2, %p2 = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2, %c2] elementSizes[%n]
      : memref<?x?xi64>, memref<?x?xmemref<?xf64>>
  // ZLOG: [db-lowering] {{.*}}node-zero.mlir:[[@LINE+1]]:3: db_sync <flush> of a table on node 0 -> put_in_db_epoch of each block's payload onto itself (run-time bytes per block, checked against 4 GiB first) in one epoch, then wait_on_epoch: nothing copied, a new version per block
  arts.db_sync <flush> (%g2, %p2 : memref<?x?xi64>, memref<?x?xmemref<?xf64>>)
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x2xf32>>)
  arts.db_free(%g2, %p2 : memref<?x?xi64>, memref<?x?xmemref<?xf64>>)
  return
}
}

//--- share.mlir

// SHARE-LABEL: func.func @shared_table
// SHARE: %[[GUIDS:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xi64>
// SHARE: arts.db_create
// SHARE: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// SHARE-NEXT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// SHARE-NEXT: %[[G:.*]] = memref.load %[[GUIDS]][%[[I]], %[[K]]] : memref<?x?xi64>
// SHARE-NEXT: arts.db_share %[[G]]
// SHARE-NEXT: }
// SHARE-NEXT: }
// SHARE: arts.db_destroy
// SHARE: return
module {
func.func @shared_table(%n: index) {
  %c2 = arith.constant 2 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <in> <read> <block> route(%r) sizes[%c2, %c2] elementSizes[%n]
      : memref<?x?xi64>, memref<?x?xmemref<?xf64>>
  // SLOG: [db-lowering] {{.*}}share.mlir:[[@LINE+1]]:3: db_sync <share> of a table on node 0 -> db_share of each block: a copy to every node without one, nothing waited for
  arts.db_sync <share> (%g, %p : memref<?x?xi64>, memref<?x?xmemref<?xf64>>)
  arts.db_free(%g, %p : memref<?x?xi64>, memref<?x?xmemref<?xf64>>)
  return
}
}

//--- invalid.mlir

// A block of vectors has no byte size here.
func.func @vector_blocks(%n: index, %r: i32) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{cannot size a datablock of 'vector<4xf32>'}}
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xvector<4xf32>>>
  return
}

// -----

// Payload blocks are built with row-major strides: another layout is reported.
func.func @strided_blocks(%n: index, %r: i32) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{datablock tables and blocks must have the identity layout}}
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf32, strided<[2]>>>
  return
}

// -----

// initPerNode runs before mainBody: a distributed table needs its block count as a constant.
func.func @distributed_dynamic_count(%n: index, %r: i32) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{a distributed allocation needs a constant positive block count: initPerNode reserves its blocks before mainBody runs}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%c2] {distributed}
      : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

// A user function named initPerNode must have the runtime's signature to take the reservations.
// expected-error @+1 {{'initPerNode' must be a one-block func.func of type '(i32, i32, !llvm.ptr) -> ()' to take the reservations of distributed allocations}}
func.func @initPerNode(%node: i32) {
  return
}
func.func @distributed_bad_init(%r: i32) {
  %c2 = arith.constant 2 : index
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c2] {distributed}
      : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

// A flush puts each block whole, and a put takes a 32-bit byte count: a constant block of
// 2^31 floats (8 GiB) cannot be flushed.
func.func @flush_too_large(%r: i32) {
  %c1 = arith.constant 1 : index
  %big = arith.constant 2147483648 : index
  // expected-error @+1 {{a block of 8589934592 bytes does not fit the 32-bit byte count of the put that flushes the host's writes to it}}
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%big]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-note @+1 {{flushed here}}
  arts.db_sync <flush> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}

// -----

// The run-time check of a block size known only at run time reports through fprintf; a
// function of the program with that name and another type is reported.
// expected-note @+1 {{defined here}}
func.func private @fprintf(i32)
func.func @flush_checked_conflict(%r: i32, %n: index) {
  %c1 = arith.constant 1 : index
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{the size of the blocks this flush puts is checked at run time, which reports an error through 'fprintf', but this module defines another 'fprintf'}}
  arts.db_sync <flush> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}

//--- edges.mlir

// 6 blocks: two shares of a 1-row edge, the rows between and a 1-row edge, rows of 8
// floats; the rows between are 4 in the first share and 2 in the last (the shorter one):
// block k has 32 bytes when k mod 3 != 1, else 64 for block 4 and 128 for block 1.
// EDGE-LABEL: func.func @edges
// EDGE-DAG: %[[C32:.*]] = arith.constant 32 : i32
// EDGE-DAG: %[[C64:.*]] = arith.constant 64 : i32
// EDGE-DAG: %[[C128:.*]] = arith.constant 128 : i32
// EDGE: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// EDGE: %[[PART:.*]] = arith.remui %[[K]], %{{.*}} : index
// EDGE-NEXT: %[[MID:.*]] = arith.cmpi eq, %[[PART]], %{{.*}} : index
// EDGE-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
// EDGE-NEXT: %[[BETWEEN:.*]] = arith.select %[[LAST]], %[[C64]], %[[C128]] : i32
// EDGE-NEXT: %[[LEN:.*]] = arith.select %[[MID]], %[[BETWEEN]], %[[C32]] : i32
// EDGE-NEXT: arts.put_in_db_epoch %{{.*}}, epoch(%{{.*}}), db(%{{.*}}), offset(%{{.*}}), bytes(%[[LEN]])
// EDGE-LABEL: func.func @initPerNode
// EDGE-DAG: %[[B32:.*]] = arith.constant 32 : i64
// EDGE-DAG: %[[B64:.*]] = arith.constant 64 : i64
// EDGE-DAG: %[[B128:.*]] = arith.constant 128 : i64
// EDGE: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// EDGE: %[[BPART:.*]] = arith.remui %[[B]], %{{.*}} : index
// EDGE-NEXT: %[[BMID:.*]] = arith.cmpi eq, %[[BPART]], %{{.*}} : index
// EDGE-NEXT: %[[BLAST:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : index
// EDGE-NEXT: %[[BBETWEEN:.*]] = arith.select %[[BLAST]], %[[B64]], %[[B128]] : i64
// EDGE-NEXT: %[[BYTES:.*]] = arith.select %[[BMID]], %[[BBETWEEN]], %[[B32]] : i64
// EDGE-NEXT: arts.db_create %{{.*}}, %[[BYTES]] {distributed}
module {
func.func @edges(%v: f32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c6] elementSizes[%c4, %c8]
      {arts.edge_rows = array<i64: 0, 1, 2>, arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?x8xf32>>
  %blk = arts.db_ref %p[%c0] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
  memref.store %v, %blk[%c0, %c0] : memref<?x8xf32>
  arts.db_sync <flush> (%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  return
}
}
