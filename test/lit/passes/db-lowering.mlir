// arts-db-lowering: allocations become GUID and payload tables filled block by block with
// reserve_guid/db_create, db_ref a load from its table, db_free a db_destroy per block.
// The convert part is checked on the pass output re-parsed by the driver and on the debug
// channel; the invalid part with --verify-diagnostics.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-db-lowering)' | carts-opt --split-input-file \
// RUN:   | FileCheck %s --implicit-check-not=arts.db_alloc --implicit-check-not=arts.db_ref --implicit-check-not=arts.db_free
// RUN: carts-opt %t/convert.mlir --pass-pipeline='builtin.module(arts-db-lowering)' --debug-only=db-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-db-lowering)' --verify-diagnostics

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
