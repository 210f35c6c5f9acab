// arts-edt-lowering: every task becomes an outlined EDT function created with packed
// parameters and one rec_dep per acquire; inside it, the view tables are rebuilt from depv
// on the task's stack, and loops selecting blocks by their index are split at block
// boundaries.
// The convert part is checked on the pass output re-parsed by the driver, on the debug
// channel (one module, so locations are the file's lines) and, through the whole
// pre-lowering stage, for leftovers; the invalid part with --verify-diagnostics.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-edt-lowering)' | carts-opt --split-input-file | FileCheck %s
// RUN: carts-opt %t/convert.mlir --pass-pipeline='builtin.module(arts-edt-lowering)' --debug-only=edt-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/convert.mlir --pass-pipeline='builtin.module(arts-edt-lowering)' --debug-only=edt-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=SPLIT
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-edt-lowering,arts-db-lowering,arts-epoch-lowering,arts-verify-lowered)' | carts-opt --split-input-file \
// RUN:   | FileCheck %s --check-prefix=STAGE --implicit-check-not='arts.edt <' --implicit-check-not=arts.epoch \
// RUN:       --implicit-check-not=arts.db_alloc --implicit-check-not=arts.db_acquire --implicit-check-not=arts.db_ref \
// RUN:       --implicit-check-not=arts.db_release --implicit-check-not=arts.db_free
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-edt-lowering)' --verify-diagnostics

// The whole stage on the first case: datablocks created, the task created in its epoch.
// STAGE-LABEL: func.func private @__arts_edt_0(
// STAGE: arts.dep_gep
// STAGE-LABEL: func.func @block_and_full_range
// STAGE: arts.reserve_guid <write>
// STAGE: arts.db_create
// STAGE: arts.reserve_guid <read>
// STAGE: %[[E:.*]] = arts.create_epoch
// STAGE: arts.edt_create @__arts_edt_0({{.*}}) deps({{.*}}) route({{.*}}) epoch(%[[E]])
// STAGE: arts.wait_on_epoch %[[E]]
// STAGE: arts.db_destroy

//--- convert.mlir

// One block of a block-partitioned table (offsets/sizes) and a coarse table acquired whole:
// slots 0 and 1 in acquire order; params = block sizes of each dependency, then captures.
// The stable acquire's rec_dep is stable, the other one not.
// CHECK-LABEL: func.func private @__arts_edt_0(
// CHECK-SAME: %{{.*}}: i32, %[[PARAMV:.*]]: !llvm.ptr, %{{.*}}: i32, %[[DEPV:.*]]: !llvm.ptr) attributes {arts.edt_function} {
// CHECK-NEXT: %[[P:.*]]:4 = arts.edt_param_unpack %[[PARAMV]] : !llvm.ptr -> (index, index, index, index)
// CHECK: %[[VA:.*]] = memref.alloca(%{{.*}}) : memref<?xmemref<?x?xf32>>
// CHECK-NEXT: %[[VX:.*]] = memref.alloca(%{{.*}}) : memref<?xmemref<?xf32>>
// CHECK: scf.for %[[SA:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %{{.*}}, %[[PA:.*]] = arts.dep_gep %[[DEPV]][%[[SA]]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT: %[[D0:.*]] = llvm.insertvalue %[[PA]], %[[U]][0]
// CHECK-NEXT: %[[D1:.*]] = llvm.insertvalue %[[PA]], %[[D0]][1]
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: %[[D2:.*]] = llvm.insertvalue %[[ZERO]], %[[D1]][2]
// CHECK-NEXT: %[[B:.*]] = arith.index_cast %[[P]]#0 : index to i64
// CHECK-NEXT: %[[M:.*]] = arith.index_cast %[[P]]#1 : index to i64
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[D3:.*]] = llvm.insertvalue %[[M]], %[[D2]][3, 1]
// CHECK-NEXT: %[[D4:.*]] = llvm.insertvalue %[[ONE]], %[[D3]][4, 1]
// CHECK-NEXT: %[[D5:.*]] = llvm.insertvalue %[[B]], %[[D4]][3, 0]
// CHECK-NEXT: %[[D6:.*]] = llvm.insertvalue %[[M]], %[[D5]][4, 0]
// CHECK-NEXT: %[[VIEW:.*]] = builtin.unrealized_conversion_cast %[[D6]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x?xf32>
// CHECK-NEXT: memref.store %[[VIEW]], %[[VA]][%[[SA]]] : memref<?xmemref<?x?xf32>>
// CHECK: %[[FIRSTX:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[IX:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[SX:.*]] = arith.addi %[[IX]], %[[FIRSTX]] : index
// CHECK-NEXT: arts.dep_gep %[[DEPV]][%[[SX]]]
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf32>
// CHECK: scf.for %{{.*}} = %[[P]]#2 to %[[P]]#3 step
// CHECK-NEXT: arts.db_ref %[[VA]][%{{.*}}] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
// CHECK-NEXT: arts.db_ref %[[VX]][%{{.*}}] : memref<?xmemref<?xf32>> -> memref<?xf32>
// CHECK-NOT: arts.db_release
// CHECK-NOT: memref.dealloc
// CHECK: return
// CHECK-LABEL: func.func @block_and_full_range
// CHECK-SAME: (%[[NB:.*]]: index, %[[BS:.*]]: index, %[[MS:.*]]: index, %{{.*}}: index)
// CHECK: %[[GA:.*]], %{{.*}} = arts.db_alloc <inout>
// CHECK: %[[GX:.*]], %{{.*}} = arts.db_alloc <in>
// CHECK: scf.for %[[CHUNK:.*]] = 
// CHECK: %[[LB:.*]] = arith.muli %[[CHUNK]], %[[BS]]
// CHECK: %[[UB:.*]] = arith.addi %[[LB]], %[[BS]]
// CHECK: %[[ROUTE:.*]] = arith.constant 3 : i32
// CHECK: %[[SUB:.*]] = memref.subview %[[GA]][%[[CHUNK]]] [1] [1] : memref<?xi64> to memref<1xi64, strided<[1], offset: ?>>
// CHECK: %[[PV:.*]] = arts.edt_param_pack(%[[BS]], %[[MS]], %[[LB]], %[[UB]] : index, index, index, index) : memref<?xi64>
// CHECK: %[[DEPC:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[EDT:.*]] = arts.edt_create @__arts_edt_0(%[[PV]] : memref<?xi64>) deps(%[[DEPC]]) route(%[[ROUTE]])
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arts.rec_dep %[[EDT]] slot(%[[S0]]) (%[[SUB]] : memref<1xi64, strided<[1], offset: ?>>) modes [#arts.mode<inout>]{{$}}
// CHECK-NEXT: %[[S1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: arts.rec_dep %[[EDT]] slot(%[[S1]]) (%[[GX]] : memref<?xi64>) modes [#arts.mode<in>] {stable}
// CHECK-NOT: arts.db_acquire
// CHECK-NOT: arts.edt <
func.func @block_and_full_range(%nb: index, %B: index, %m: index, %nchunks: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %gA, %pA = arts.db_alloc <inout> <write> <block> route(%c0_i32) sizes[%nb] elementSizes[%B, %m]
      : memref<?xi64>, memref<?xmemref<?x?xf32>>
  %gX, %pX = arts.db_alloc <in> <read> <coarse> route(%c0_i32) sizes[%c1] elementSizes[%m]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e = arts.epoch {
    scf.for %chunk = %c0 to %nchunks step %c1 {
      %lb = arith.muli %chunk, %B : index
      %ub = arith.addi %lb, %B : index
      %route = arith.constant 3 : i32
      // DEBUG: [edt-lowering] {{.*}}convert.mlir:[[@LINE+1]]:18: dep #0 mode=inout table=memref<?xmemref<?x?xf32>> block sizes from db_alloc at {{.*}}convert.mlir:[[@LINE-9]]:14
      %g1, %p1 = arts.db_acquire <inout> (%gA, %pA : memref<?xi64>, memref<?xmemref<?x?xf32>>)
          offsets[%chunk] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?x?xf32>>
      // DEBUG: [edt-lowering] {{.*}}convert.mlir:[[@LINE+1]]:18: dep #1 mode=in table=memref<?xmemref<?xf32>>
      %g2, %p2 = arts.db_acquire <in> (%gX, %pX : memref<?xi64>, memref<?xmemref<?xf32>>)
          {full_range, stable} : memref<?xi64>, memref<?xmemref<?xf32>>
      // DEBUG: [edt-lowering] {{.*}}convert.mlir:[[@LINE+1]]:7: task -> @__arts_edt_0 params=(index, index, index, index) deps=2
      arts.edt <task> <intranode> route(%route) (%p1, %p2 : memref<?xmemref<?x?xf32>>, memref<?xmemref<?xf32>>) {
      ^bb0(%v1: memref<?xmemref<?x?xf32>>, %v2: memref<?xmemref<?xf32>>):
        scf.for %i = %lb to %ub step %c1 {
          %b = arts.db_ref %v1[%c0] : memref<?xmemref<?x?xf32>> -> memref<?x?xf32>
          %x = arts.db_ref %v2[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
          %li = arith.subi %i, %lb : index
          %xv = memref.load %x[%li] : memref<?xf32>
          memref.store %xv, %b[%li, %c0] : memref<?x?xf32>
        }
        arts.db_release(%v1 : memref<?xmemref<?x?xf32>>)
        arts.db_release(%v2 : memref<?xmemref<?xf32>>)
      }
    }
  }
  arts.db_free(%gA, %pA : memref<?xi64>, memref<?xmemref<?x?xf32>>)
  arts.db_free(%gX, %pX : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}

// -----

// Captured scalars are packed in order of first use with their own types (after the block
// size of the dependency); constants and memref.get_global are re-created, not packed.
// CHECK-LABEL: func.func private @__arts_edt_0(
// CHECK-NEXT: %[[P:.*]]:6 = arts.edt_param_unpack %{{.*}} : !llvm.ptr -> (index, f32, i32, f64, index, !llvm.ptr)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[GLOB:.*]] = memref.get_global @table : memref<4xf32>
// CHECK: %[[T:.*]] = memref.load %[[GLOB]][%[[C1]]] : memref<4xf32>
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[P]]#1, %[[T]] : f32
// CHECK-NEXT: %[[AH:.*]] = arith.addf %[[A]], %[[H]] : f32
// CHECK-NEXT: %[[AE:.*]] = arith.extf %[[AH]] : f32 to f64
// CHECK-NEXT: %[[KE:.*]] = arith.sitofp %[[P]]#2 : i32 to f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[AE]], %[[P]]#3 : f64
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S]], %[[KE]] : f64
// CHECK-NEXT: memref.store %[[S2]], %{{.*}}[%[[P]]#4] : memref<?xf64>
// CHECK-NEXT: llvm.load %[[P]]#5 : !llvm.ptr -> i8
// CHECK-LABEL: func.func @captures
// CHECK-SAME: (%[[I:.*]]: index, %[[X:.*]]: f32, %[[Y:.*]]: f64, %[[K:.*]]: i32, %[[STR:.*]]: !llvm.ptr, %[[N:.*]]: index)
// CHECK: arts.edt_param_pack(%[[N]], %[[X]], %[[K]], %[[Y]], %[[I]], %[[STR]] : index, f32, i32, f64, index, !llvm.ptr) : memref<?xi64>
// CHECK: arts.rec_dep %{{.*}} slot(%{{.*}}) (%{{.*}} : memref<?xi64>) modes [#arts.mode<out>]
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @captures(%i: index, %x: f32, %y: f64, %k: i32, %s: !llvm.ptr, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %half = arith.constant 0.5 : f32
  %glob = memref.get_global @table : memref<4xf32>
  %g, %p = arts.db_alloc <out> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf64>>
  %ag, %ap = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<?xf64>>)
      : memref<?xi64>, memref<?xmemref<?xf64>>
  arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf64>>) {
  ^bb0(%v: memref<?xmemref<?xf64>>):
    %blk = arts.db_ref %v[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
    %t = memref.load %glob[%c1] : memref<4xf32>
    %a = arith.addf %x, %t : f32
    %ah = arith.addf %a, %half : f32
    %ae = arith.extf %ah : f32 to f64
    %ke = arith.sitofp %k : i32 to f64
    %b = arith.addf %ae, %y : f64
    %c = arith.addf %b, %ke : f64
    memref.store %c, %blk[%i] : memref<?xf64>
    %ch = llvm.load %s : !llvm.ptr -> i8
    arts.db_release(%v : memref<?xmemref<?xf64>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf64>>)
  return
}

// -----

// A fine-grained 2-d table: `indices` pin a row (the acquire drops that dimension) and
// offsets/sizes select 2 of its blocks; a second acquire takes a 2 x %k box, whose slots
// follow row-major after the first acquire's 2.
// CHECK-LABEL: func.func private @__arts_edt_0(
// CHECK-NEXT: %[[P:.*]] = arts.edt_param_unpack %{{.*}} : !llvm.ptr -> (index)
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[ROW:.*]] = memref.alloca(%[[C2]]) : memref<?xmemref<f64>>
// CHECK-NEXT: %[[BOX:.*]] = memref.alloca(%[[C2]], %[[P]]) : memref<?x?xmemref<f64>>
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %[[C2]]
// CHECK-NEXT: arts.dep_gep %{{.*}}[%[[S]]]
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64)> to memref<f64>
// CHECK: %[[FIRST:.*]] = arith.constant 2 : index
// CHECK: scf.for %[[BI:.*]] = %{{.*}} to %[[C2]]
// CHECK-NEXT: scf.for %[[BJ:.*]] = %{{.*}} to %[[P]]
// CHECK-NEXT: %[[ROWOFF:.*]] = arith.muli %[[BI]], %[[P]] : index
// CHECK-NEXT: %[[LIN:.*]] = arith.addi %[[ROWOFF]], %[[BJ]] : index
// CHECK-NEXT: %[[SLOT:.*]] = arith.addi %[[LIN]], %[[FIRST]] : index
// CHECK-NEXT: arts.dep_gep %{{.*}}[%[[SLOT]]]
// CHECK: memref.store %{{.*}}, %[[BOX]][%[[BI]], %[[BJ]]] : memref<?x?xmemref<f64>>
// CHECK: arts.db_ref %[[ROW]][%{{.*}}] : memref<?xmemref<f64>> -> memref<f64>
// CHECK: arts.db_ref %[[BOX]][%{{.*}}, %{{.*}}] : memref<?x?xmemref<f64>> -> memref<f64>
// CHECK-LABEL: func.func @fine_grained
// CHECK-SAME: (%{{.*}}: index, %{{.*}}: index, %[[I:.*]]: index, %[[J:.*]]: index, %[[K:.*]]: index)
// CHECK: %[[G:.*]], %{{.*}} = arts.db_alloc
// CHECK: %[[ROWG:.*]] = memref.subview %[[G]][%[[I]], %[[J]]] [1, 2] [1, 1] : memref<?x?xi64> to memref<2xi64, strided<[1], offset: ?>>
// CHECK: %[[BOXN:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK-NEXT: %[[BOXG:.*]] = memref.subview %[[G]][%[[I]], %[[J]]] [2, %[[K]]] [1, 1] : memref<?x?xi64> to memref<2x?xi64, strided<[?, 1], offset: ?>>
// CHECK-NEXT: %[[PV:.*]] = arts.edt_param_pack(%[[K]] : index) : memref<?xi64>
// CHECK: %[[TOTAL:.*]] = arith.addi %[[BOXN]], %{{.*}} : index
// CHECK-NEXT: %[[DEPC:.*]] = arith.index_cast %[[TOTAL]] : index to i32
// CHECK-NEXT: %[[EDT:.*]] = arts.edt_create @__arts_edt_0(%[[PV]] : memref<?xi64>) deps(%[[DEPC]])
// CHECK-NEXT: %[[S0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arts.rec_dep %[[EDT]] slot(%[[S0]]) (%[[ROWG]] : memref<2xi64, strided<[1], offset: ?>>) modes [#arts.mode<in>]
// CHECK-NEXT: %[[S2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: arts.rec_dep %[[EDT]] slot(%[[S2]]) (%[[BOXG]] : memref<2x?xi64, strided<[?, 1], offset: ?>>) modes [#arts.mode<concurrent>]
func.func @fine_grained(%n: index, %m: index, %i: index, %j: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <fine_grained> route(%r) sizes[%n, %m] elementSizes[]
      : memref<?x?xi64>, memref<?x?xmemref<f64>>
  %rg, %rp = arts.db_acquire <in> (%g, %p : memref<?x?xi64>, memref<?x?xmemref<f64>>)
      indices[%i] offsets[%j] sizes[%c2] : memref<?xi64>, memref<?xmemref<f64>>
  %bg, %bp = arts.db_acquire <concurrent> (%g, %p : memref<?x?xi64>, memref<?x?xmemref<f64>>)
      offsets[%i, %j] sizes[%c2, %k] : memref<?x?xi64>, memref<?x?xmemref<f64>>
  arts.edt <task> <intranode> route(%r) (%rp, %bp : memref<?xmemref<f64>>, memref<?x?xmemref<f64>>) {
  ^bb0(%row: memref<?xmemref<f64>>, %box: memref<?x?xmemref<f64>>):
    %a = arts.db_ref %row[%c1] : memref<?xmemref<f64>> -> memref<f64>
    %b = arts.db_ref %box[%c1, %c0] : memref<?x?xmemref<f64>> -> memref<f64>
    %x = memref.load %a[] : memref<f64>
    memref.store %x, %b[] : memref<f64>
    arts.db_release(%row : memref<?xmemref<f64>>)
    arts.db_release(%box : memref<?x?xmemref<f64>>)
  }
  arts.db_free(%g, %p : memref<?x?xi64>, memref<?x?xmemref<f64>>)
  return
}

// -----

// Nested tasks in an epoch inside a task that does not acquire the table: the inner tasks
// are outlined first; the outer one receives what its body uses (the table extent %n, the
// block size it passes on) and the allocation's GUID table by address, and has no slot.
// CHECK-LABEL: func.func private @__arts_edt_0(
// CHECK-NEXT: %[[P:.*]]:3 = arts.edt_param_unpack %{{.*}} : !llvm.ptr -> (index, index, index)
// CHECK: %[[ADDR:.*]] = arith.index_cast %[[P]]#2 : index to i64
// CHECK-NEXT: %[[RAW:.*]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
// CHECK: %[[N64:.*]] = arith.index_cast %[[P]]#0 : index to i64
// CHECK: %[[GT:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xi64>
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for %[[B:.*]] = %{{.*}} to %[[P]]#0 step
// CHECK-NEXT: %[[SUB:.*]] = memref.subview %[[GT]][%[[B]]] [1] [1]
// CHECK-NEXT: %[[PV:.*]] = arts.edt_param_pack(%[[P]]#1, %[[B]] : index, index) : memref<?xi64>
// CHECK: %[[EDT:.*]] = arts.edt_create @__arts_edt_1(%[[PV]] : memref<?xi64>)
// CHECK: arts.rec_dep %[[EDT]] slot(%{{.*}}) (%[[SUB]] : memref<1xi64, strided<[1], offset: ?>>) modes [#arts.mode<out>]
// CHECK-LABEL: func.func private @__arts_edt_1(
// CHECK-NEXT: arts.edt_param_unpack %{{.*}} : !llvm.ptr -> (index, index)
// CHECK: arts.dep_gep
// CHECK-LABEL: func.func @nested_by_address
// CHECK-SAME: (%[[NN:.*]]: index, %[[BB:.*]]: index)
// CHECK: %[[G:.*]], %{{.*}} = arts.db_alloc
// CHECK: arts.epoch {
// CHECK-NEXT: %[[INTPTR:.*]] = memref.extract_aligned_pointer_as_index %[[G]] : memref<?xi64> -> index
// CHECK-NEXT: %[[OPV:.*]] = arts.edt_param_pack(%[[NN]], %[[BB]], %[[INTPTR]] : index, index, index) : memref<?xi64>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arts.edt_create @__arts_edt_0(%[[OPV]] : memref<?xi64>) deps(%[[ZERO]])
// CHECK-NOT: arts.rec_dep
// CHECK: arts.db_free
func.func @nested_by_address(%n: index, %B: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%B]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e = arts.epoch {
    arts.edt <single> <intranode> route(%r) {
      %ie = arts.epoch {
        scf.for %b = %c0 to %n step %c1 {
          %ag, %ap = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
              offsets[%b] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
          arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
          ^bb0(%v: memref<?xmemref<?xf32>>):
            %blk = arts.db_ref %v[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
            %f = arith.index_cast %b : index to i32
            %ff = arith.sitofp %f : i32 to f32
            memref.store %ff, %blk[%c0] : memref<?xf32>
            arts.db_release(%v : memref<?xmemref<?xf32>>)
          }
        }
      }
    }
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}

// -----

// Nested tasks acquiring from the view of a task that acquired the whole table: the outer
// function rebuilds the GUID table of its dependency from depv too, and the inner
// acquires select from it (slots relative to the outer acquire).
// CHECK-LABEL: func.func private @__arts_edt_0(
// CHECK-NEXT: %[[P:.*]]:2 = arts.edt_param_unpack %{{.*}} : !llvm.ptr -> (index, index)
// CHECK: %[[VIEWS:.*]] = memref.alloca(%[[P]]#0) : memref<?xmemref<?xf32>>
// CHECK-NEXT: %[[GUIDS:.*]] = memref.alloca(%[[P]]#0) : memref<?xi64>
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %[[P]]#0
// CHECK-NEXT: %[[G:.*]], %[[PTR:.*]] = arts.dep_gep %{{.*}}[%[[S]]]
// CHECK: memref.store %{{.*}}, %[[VIEWS]][%[[S]]]
// CHECK-NEXT: memref.store %[[G]], %[[GUIDS]][%[[S]]] : memref<?xi64>
// CHECK: arts.epoch {
// CHECK: memref.subview %[[GUIDS]][%{{.*}}] [1] [1]
// CHECK: arts.edt_create @__arts_edt_1
// CHECK-NOT: memref.dealloc
// CHECK: return
// CHECK-LABEL: func.func @nested_from_view
// CHECK-SAME: (%[[N:.*]]: index, %[[B:.*]]: index)
// CHECK: %[[GA:.*]], %{{.*}} = arts.db_alloc
// CHECK-NEXT: %[[PV:.*]] = arts.edt_param_pack(%[[N]], %[[B]] : index, index) : memref<?xi64>
// CHECK: %[[DEPC:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK-NEXT: %[[EDT:.*]] = arts.edt_create @__arts_edt_0(%[[PV]] : memref<?xi64>) deps(%[[DEPC]])
// CHECK: arts.rec_dep %[[EDT]] slot(%{{.*}}) (%[[GA]] : memref<?xi64>) modes [#arts.mode<in>]
func.func @nested_from_view(%n: index, %B: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <in> <read> <block> route(%r) sizes[%n] elementSizes[%B]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %og, %op = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
      : memref<?xi64>, memref<?xmemref<?xf32>>
  arts.edt <task> <intranode> route(%r) (%op : memref<?xmemref<?xf32>>) {
  ^bb0(%ov: memref<?xmemref<?xf32>>):
    %ie = arts.epoch {
      scf.for %b = %c0 to %n step %c1 {
        %ag, %ap = arts.db_acquire <in> (%og, %ov : memref<?xi64>, memref<?xmemref<?xf32>>)
            offsets[%b] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
        arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
        ^bb0(%v: memref<?xmemref<?xf32>>):
          %blk = arts.db_ref %v[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
          %x = memref.load %blk[%c0] : memref<?xf32>
          arts.db_release(%v : memref<?xmemref<?xf32>>)
        }
      }
    }
    arts.db_release(%ov : memref<?xmemref<?xf32>>)
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}

// -----

// A task with neither dependencies nor captures: an empty parameter array, no unpack.
// CHECK-LABEL: func.func private @__arts_edt_0(
// CHECK-NEXT: %{{.*}} = arts.runtime_query <current_worker> : i32
// CHECK-NEXT: return
// CHECK-LABEL: func.func @empty_task
// CHECK: %[[PV:.*]] = arts.edt_param_pack() : memref<?xi64>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arts.edt_create @__arts_edt_0(%[[PV]] : memref<?xi64>) deps(%[[ZERO]]) route(%{{.*}})
// CHECK-NEXT: return
func.func @empty_task(%r: i32) {
  arts.edt <sync> <intranode> route(%r) {
    %w = arts.runtime_query <current_worker> : i32
  }
  return
}

// -----

// A loop selecting blocks of 64 rows by its index is split where the block changes: the
// block (and its payload, for the access under the scf.if too) is selected once per
// segment, and the inner loop indexes it with iv - base.
// CHECK-LABEL: func.func private @__arts_edt_0(
// CHECK: %[[P:.*]]:2 = arts.edt_param_unpack
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[VIEWS:.*]] = memref.alloca
// CHECK: scf.while (%[[ARG:.*]] = %[[P]]#0) : (index) -> index {
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[ARG]], %[[P]]#1 : index
// CHECK-NEXT: scf.condition(%[[MORE]]) %[[ARG]] : index
// CHECK-NEXT: } do {
// CHECK-NEXT: ^bb0(%[[START:.*]]: index):
// CHECK-NEXT: %[[BLOCK:.*]] = arith.divui %[[START]], %[[C64]] : index
// CHECK-NEXT: %[[OFF:.*]] = arith.remui %[[START]], %[[C64]] : index
// CHECK-NEXT: %[[BASE:.*]] = arith.subi %[[START]], %[[OFF]] : index
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[C64]], %[[OFF]] : index
// CHECK-NEXT: %[[NEXTB:.*]] = arith.addi %[[START]], %[[LEFT]] : index
// CHECK-NEXT: %[[END0:.*]] = arith.minsi %[[NEXTB]], %[[P]]#1 : index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[START]], %{{.*}} : index
// CHECK-NEXT: %[[CLIP:.*]] = arith.minsi %[[END0]], %{{.*}} : index
// CHECK-NEXT: %[[END:.*]] = arith.select %[[NEG]], %[[CLIP]], %[[END0]] : index
// CHECK-NEXT: %[[BLK:.*]] = arts.db_ref %[[VIEWS]][%[[BLOCK]]] : memref<?xmemref<?xf32>> -> memref<?xf32>
// CHECK-NEXT: %[[BLK2:.*]] = arts.db_ref %[[VIEWS]][%[[BLOCK]]] : memref<?xmemref<?xf32>> -> memref<?xf32>
// CHECK-NEXT: scf.for %[[I:.*]] = %[[START]] to %[[END]] step %{{.*}} {
// CHECK-NEXT: %[[ROW:.*]] = arith.subi %[[I]], %[[BASE]] : index
// CHECK-NEXT: memref.store %{{.*}}, %[[BLK]][%[[ROW]]] : memref<?xf32>
// CHECK-NEXT: %[[SMALL:.*]] = arith.cmpi ult, %[[ROW]], %{{.*}} : index
// CHECK-NEXT: scf.if %[[SMALL]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[BLK2]][%[[ROW]]] : memref<?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: } {arts.chunk_loop}
// CHECK: scf.yield %[[END]] : index
// CHECK-NOT: arith.divui
// CHECK: return
// CHECK-LABEL: func.func @split_at_blocks
// SPLIT: [edt-lowering] {{.*}}convert.mlir:[[@LINE+14]]:7: loop split at block boundaries (blocks of 64 rows): 3 div/rem of the index once per block
func.func @split_at_blocks(%lo: index, %hi: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <block> route(%c0_i32) sizes[%c4] elementSizes[%c64]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e = arts.epoch {
    %g1, %p1 = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        {full_range} : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%c0_i32) (%p1 : memref<?xmemref<?xf32>>) {
    ^bb0(%v: memref<?xmemref<?xf32>>):
      %one = arith.constant 1.0 : f32
      scf.for %i = %lo to %hi step %c1 {
        %b = arith.divui %i, %c64 : index
        %r = arith.remui %i, %c64 : index
        %blk = arts.db_ref %v[%b] : memref<?xmemref<?xf32>> -> memref<?xf32>
        memref.store %one, %blk[%r] : memref<?xf32>
        %small = arith.cmpi ult, %r, %c4 : index
        scf.if %small {
          %b2 = arith.divui %i, %c64 : index
          %blk2 = arts.db_ref %v[%b2] : memref<?xmemref<?xf32>> -> memref<?xf32>
          memref.store %one, %blk2[%r] : memref<?xf32>
        }
      } {arts.chunk_loop}
      arts.db_release(%v : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}

//--- invalid.mlir

// A memref that is not a datablock cannot travel to another task.
func.func @captures_plain_memref(%r: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // expected-note @+1 {{captured value defined here}}
  %a = memref.alloc(%n) : memref<?xf32>
  // expected-error @+1 {{task captures a memref that is not a datablock ('memref<?xf32>')}}
  arts.edt <task> <intranode> route(%r) {
    memref.store %f, %a[%c0] : memref<?xf32>
  }
  return
}

// -----

// A value with no u64 encoding cannot be a parameter.
// expected-note @+1 {{captured value defined here}}
func.func @captures_vector(%r: i32, %v: vector<4xf32>) {
  // expected-error @+1 {{task captures a value of type 'vector<4xf32>' that cannot be passed as an EDT parameter}}
  arts.edt <task> <intranode> route(%r) {
    %x = vector.extract %v[0] : f32 from vector<4xf32>
  }
  return
}

// -----

// A task touching the payload table of an allocation it does not acquire.
func.func @unacquired_payload(%r: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{captured value defined here}}
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{task uses a datablock table it does not acquire (add it to the task's dependencies)}}
  arts.edt <task> <intranode> route(%r) {
    %b = arts.db_ref %p[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  }
  return
}

// -----

// Parallel tasks fan out into workers: for-lowering must have split them.
func.func @parallel_task(%r: i32) {
  // expected-error @+1 {{a parallel task cannot be outlined as one EDT}}
  arts.edt <parallel> <intranode> route(%r) {
  }
  return
}

// -----

// Barriers inside a task are the epochs stage's business.
func.func @barrier_in_task(%r: i32) {
  arts.edt <single> <intranode> route(%r) {
    // expected-error @+1 {{'arts.barrier' inside a task cannot be outlined (concurrency-opt and epochs must run first)}}
    arts.barrier
  }
  return
}

// -----

// An acquire whose view is read outside any task has no lowering.
func.func @acquire_used_by_host(%r: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{acquired datablocks used outside a task dependency}}
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %b = arts.db_ref %ap[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  return
}

// -----

// The GUIDs of one table and the payloads of another cannot make one acquire.
func.func @mixed_sources(%r: i32, %n: index) {
  %c1 = arith.constant 1 : index
  %g1, %p1 = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %g2, %p2 = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{the GUID and payload sources of this acquire are not the two halves of one datablock table}}
  %ag, %ap = arts.db_acquire <in> (%g1, %p2 : memref<?xi64>, memref<?xmemref<?xf32>>)
      : memref<?xi64>, memref<?xmemref<?xf32>>
  arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
  ^bb0(%v: memref<?xmemref<?xf32>>):
  }
  return
}
