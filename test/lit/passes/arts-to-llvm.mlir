// arts-to-llvm: every lowered ARTS op becomes runtime API calls (declared once each), the
// user's main becomes mainBody behind generated artsMain/main, and the stage's upstream
// conversion then leaves the LLVM dialect only. Anything pre-lowering should have lowered
// fails at its location before the module changes.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-to-llvm)' | FileCheck %s
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-to-llvm)' --debug-only=arts-to-llvm 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/program.mlir --start-from=arts-to-llvm --arts-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-to-llvm)' --verify-diagnostics
// RUN: not carts-opt %t/leftover.mlir --pass-pipeline='builtin.module(arts-to-llvm)' -o %t/leftover.out 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not test -e %t/leftover.out

//--- convert.mlir

// Each packed value is one u64 word (integers and index sign-extended, f32 bit-cast then
// zero-extended, f64 bit-cast, pointers as integers); the task reads the words back from
// paramv and undoes the casts. The buffer is freed right after the creation (the runtime
// copies it); without an epoch the task goes to artsEdtCreate.
// CHECK-LABEL: func.func private @artsEdtCreate(!llvm.ptr, i32, i32, !llvm.ptr, i32) -> i64
// CHECK-LABEL: func.func private @__arts_edt_0
// CHECK-SAME: (%[[PARAMC:.*]]: i32, %[[PARAMV:.*]]: !llvm.ptr, %{{.*}}: i32, %{{.*}}: !llvm.ptr)
// CHECK: %[[A0:.*]] = llvm.getelementptr %[[PARAMV]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK: %[[W0:.*]] = llvm.load %[[A0]] : !llvm.ptr -> i64
// CHECK: arith.trunci %[[W0]] : i64 to i32
// CHECK: %[[A1:.*]] = llvm.getelementptr %[[PARAMV]][1]
// CHECK: %[[W1:.*]] = llvm.load %[[A1]] : !llvm.ptr -> i64
// CHECK-NOT: %[[W1]]
// CHECK: llvm.getelementptr %[[PARAMV]][2]
// CHECK: %[[W2:.*]] = llvm.load
// CHECK: arith.index_cast %[[W2]] : i64 to index
// CHECK: llvm.getelementptr %[[PARAMV]][3]
// CHECK: %[[W3:.*]] = llvm.load
// CHECK: %[[B3:.*]] = arith.trunci %[[W3]] : i64 to i32
// CHECK: arith.bitcast %[[B3]] : i32 to f32
// CHECK: llvm.getelementptr %[[PARAMV]][4]
// CHECK: %[[W4:.*]] = llvm.load
// CHECK: arith.bitcast %[[W4]] : i64 to f64
// CHECK: llvm.getelementptr %[[PARAMV]][5]
// CHECK: %[[W5:.*]] = llvm.load
// CHECK: llvm.inttoptr %[[W5]] : i64 to !llvm.ptr
// CHECK-LABEL: func.func @pack
// CHECK-SAME: (%[[I:.*]]: i32, %[[L:.*]]: i64, %[[X:.*]]: index, %[[F:.*]]: f32, %[[D:.*]]: f64, %[[P:.*]]: !llvm.ptr, %[[ROUTE:.*]]: i32, %[[DEPS:.*]]: i32)
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: %[[BUF:.*]] = memref.alloca(%[[C6]]) : memref<?xi64>
// CHECK: %[[E0:.*]] = arith.extsi %[[I]] : i32 to i64
// CHECK: memref.store %[[E0]], %[[BUF]][%{{.*}}]
// CHECK: memref.store %[[L]], %[[BUF]]
// CHECK: %[[E2:.*]] = arith.index_cast %[[X]] : index to i64
// CHECK: memref.store %[[E2]], %[[BUF]]
// CHECK: %[[FB:.*]] = arith.bitcast %[[F]] : f32 to i32
// CHECK: %[[E3:.*]] = arith.extui %[[FB]] : i32 to i64
// CHECK: memref.store %[[E3]], %[[BUF]]
// CHECK: %[[E4:.*]] = arith.bitcast %[[D]] : f64 to i64
// CHECK: memref.store %[[E4]], %[[BUF]]
// CHECK: %[[E5:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK: memref.store %[[E5]], %[[BUF]]
// CHECK: %[[FN:.*]] = constant @__arts_edt_0 : (i32, !llvm.ptr, i32, !llvm.ptr) -> ()
// CHECK: %[[FNP:.*]] = builtin.unrealized_conversion_cast %[[FN]] : (i32, !llvm.ptr, i32, !llvm.ptr) -> () to !llvm.ptr
// CHECK: %[[NPARAMS:.*]] = arith.constant 6 : i32
// CHECK: %[[RAW:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[RAW64:.*]] = arith.index_cast %[[RAW]] : index to i64
// CHECK: %[[PV:.*]] = llvm.inttoptr %[[RAW64]] : i64 to !llvm.ptr
// CHECK: %[[T:.*]] = call @artsEdtCreate(%[[FNP]], %[[ROUTE]], %[[NPARAMS]], %[[PV]], %[[DEPS]]) : (!llvm.ptr, i32, i32, !llvm.ptr, i32) -> i64
// CHECK-NEXT: return %[[T]] : i64
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  %u:6 = arts.edt_param_unpack %paramv : !llvm.ptr -> (i32, i64, index, f32, f64, !llvm.ptr)
  return
}
func.func @pack(%a: i32, %b: i64, %c: index, %d: f32, %e: f64, %p: !llvm.ptr, %route: i32, %deps: i32) -> i64 {
  // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:9: edt_param_pack: words=6, on the stack of the function
  %pv = arts.edt_param_pack(%a, %b, %c, %d, %e, %p : i32, i64, index, f32, f64, !llvm.ptr) : memref<?xi64>
  // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:8: edt_create @__arts_edt_0 -> artsEdtCreate
  %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%deps) route(%route)
  return %t : i64
}

// -----

// An epoch is started and waited on through the runtime; a task created inside it is
// counted in it. A buffer filled anew for each creation of a loop is one buffer on the
// function's stack, made at its entry: no allocation per task and nothing to free.
// CHECK-LABEL: func.func @epoch_loop
// CHECK-SAME: (%[[N:.*]]: index, %{{.*}}: f32, %[[ROUTE:.*]]: i32, %[[DEPS:.*]]: i32)
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[BUF:.*]] = memref.alloca(%[[C2]]) : memref<?xi64>
// CHECK: %[[NULL:.*]] = arith.constant 0 : i64
// CHECK: %[[SLOT:.*]] = arith.constant 0 : i32
// CHECK: %[[E:.*]] = call @artsInitializeAndStartEpoch(%[[NULL]], %[[SLOT]]) : (i64, i32) -> i64
// CHECK: scf.for %[[I:.*]] =
// CHECK-NOT: memref.alloc
// CHECK: %[[W:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: memref.store %[[W]], %[[BUF]]
// CHECK: func.call @artsEdtCreateWithEpoch(%{{.*}}, %[[ROUTE]], %{{.*}}, %{{.*}}, %[[DEPS]], %[[E]]) : (!llvm.ptr, i32, i32, !llvm.ptr, i32, i64) -> i64
// CHECK-NOT: memref.dealloc
// CHECK: }
// CHECK-NEXT: call @artsWaitOnHandle(%[[E]]) : (i64) -> i1
// On one node a launch loop needs no launch.
// CHECK-NOT: call @artsLaunch
func.func private @__arts_edt_1(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  return
}
func.func @epoch_loop(%n: index, %x: f32, %route: i32, %deps: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = arts.create_epoch
  scf.for %i = %c0 to %n step %c1 {
    // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:11: edt_param_pack: words=2, on the stack of the function
    %pv = arts.edt_param_pack(%i, %x : index, f32) : memref<?xi64>
    // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:10: edt_create @__arts_edt_1 -> artsEdtCreateWithEpoch
    %t = arts.edt_create @__arts_edt_1(%pv : memref<?xi64>) deps(%deps) route(%route) epoch(%e)
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  return
}

// -----

// On several nodes a launch loop is a launch: what it sends each other node leaves as one
// message at its end.
// CHECK-LABEL: func.func @launch_on_nodes
// CHECK: %[[E:.*]] = call @artsInitializeAndStartEpoch
// CHECK-NEXT: call @artsLaunchBegin() : () -> ()
// CHECK-NEXT: scf.for
// CHECK: func.call @artsEdtCreateWithEpoch
// CHECK: }
// CHECK-NEXT: call @artsLaunchEnd() : () -> ()
// CHECK-NEXT: call @artsWaitOnHandle(%[[E]]) : (i64) -> i1
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func private @__arts_edt_1(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  return
}
func.func @launch_on_nodes(%n: index, %route: i32, %deps: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = arts.create_epoch
  // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:3: launch loop on several nodes -> between artsLaunchBegin and artsLaunchEnd (one message per node)
  scf.for %i = %c0 to %n step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_1(%pv : memref<?xi64>) deps(%deps) route(%route) epoch(%e)
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  return
}
}

// -----

// A time loop of two launch loops in one epoch, waiting for nothing, is the launch: its
// sweeps' creations reach each node as one message. A time loop that waits for an epoch each
// step keeps a launch per launch loop.
// CHECK-LABEL: func.func @time_loop_launch
// CHECK: %[[E:.*]] = call @artsInitializeAndStartEpoch
// CHECK-NEXT: call @artsLaunchBegin() : () -> ()
// CHECK-NEXT: scf.for
// CHECK-NOT: artsLaunch
// CHECK: func.call @artsEdtCreateWithEpoch
// CHECK-NOT: artsLaunch
// CHECK: func.call @artsEdtCreateWithEpoch
// CHECK-NOT: artsLaunch
// CHECK: call @artsLaunchEnd() : () -> ()
// CHECK-NEXT: call @artsWaitOnHandle(%[[E]]) : (i64) -> i1
// CHECK-LABEL: func.func @time_loop_waits
// CHECK: scf.for
// CHECK: call @artsInitializeAndStartEpoch
// CHECK-NEXT: call @artsLaunchBegin() : () -> ()
// CHECK-NEXT: scf.for
// CHECK: call @artsLaunchEnd() : () -> ()
// CHECK-NEXT: call @artsWaitOnHandle
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func private @__arts_edt_1(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  return
}
func.func @time_loop_launch(%n: index, %steps: index, %route: i32, %deps: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = arts.create_epoch
  // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:3: loop around launch loops, waiting for nothing, on several nodes -> between artsLaunchBegin and artsLaunchEnd (one message per node)
  scf.for %t = %c0 to %steps step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
      %k = arts.edt_create @__arts_edt_1(%pv : memref<?xi64>) deps(%deps) route(%route) epoch(%e)
    } {arts.launch_loop}
    scf.for %i = %c0 to %n step %c1 {
      %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
      %k = arts.edt_create @__arts_edt_1(%pv : memref<?xi64>) deps(%deps) route(%route) epoch(%e)
    } {arts.launch_loop}
  }
  arts.wait_on_epoch %e
  return
}
func.func @time_loop_waits(%n: index, %steps: index, %route: i32, %deps: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %steps step %c1 {
    %e = arts.create_epoch
    // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:5: launch loop on several nodes -> between artsLaunchBegin and artsLaunchEnd (one message per node)
    scf.for %i = %c0 to %n step %c1 {
      %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
      %k = arts.edt_create @__arts_edt_1(%pv : memref<?xi64>) deps(%deps) route(%route) epoch(%e)
    } {arts.launch_loop}
    arts.wait_on_epoch %e
  }
  return
}
}

// -----

// A table of one entry (a subview of the allocation's table) is one artsRecordDep at the
// first slot, without a loop; inout is a WRITE dependence (9).
// CHECK-LABEL: func.func @rec_dep_single
// CHECK-SAME: (%[[T:.*]]: i64, %[[G:.*]]: memref<?xi64>, %[[K:.*]]: index, %[[FIRST:.*]]: i32)
// CHECK: %[[SUB:.*]] = memref.subview %[[G]][%[[K]]] [1] [1]
// CHECK: %[[MODE:.*]] = arith.constant 9 : i32
// CHECK-NOT: scf.for
// CHECK: %[[GUID:.*]] = memref.load %[[SUB]][%{{.*}}] : memref<1xi64, strided<[1], offset: ?>>
// CHECK: call @artsRecordDep(%[[GUID]], %[[T]], %[[FIRST]], %[[MODE]]) : (i64, i64, i32, i32) -> ()
// CHECK-NOT: artsRecordDep
// CHECK: return
func.func @rec_dep_single(%t: i64, %g: memref<?xi64>, %k: index, %first: i32) {
  %sub = memref.subview %g[%k] [1] [1] : memref<?xi64> to memref<1xi64, strided<[1], offset: ?>>
  // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:3: rec_dep table #0 of memref<1xi64, strided<[1], offset: ?>> -> artsRecordDep mode 9
  arts.rec_dep %t slot(%first) (%sub : memref<1xi64, strided<[1], offset: ?>>) modes [#arts.mode<inout>]
  return
}

// -----

// Several tables: a 2-D table is walked row-major (slot = first + i * cols + j), the next
// table continues after its last entry. in -> READ (8), concurrent -> CONCURRENT (10),
// out -> WRITE (9).
// CHECK-LABEL: func.func @rec_dep_tables
// CHECK-SAME: (%[[T:.*]]: i64, %[[A:.*]]: memref<?x?xi64>, %[[B:.*]]: memref<3xi64>, %[[C:.*]]: memref<i64>, %[[FIRST:.*]]: i32)
// CHECK: %[[READ:.*]] = arith.constant 8 : i32
// CHECK: %[[ROWS:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xi64>
// CHECK: %[[COLS:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x?xi64>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[ROWS]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[COLS]]
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %[[COLS]] : index
// CHECK: %[[LIN:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK: %[[GA:.*]] = memref.load %[[A]][%[[I]], %[[J]]]
// CHECK: %[[LIN32:.*]] = arith.index_cast %[[LIN]] : index to i32
// CHECK: %[[SA:.*]] = arith.addi %[[FIRST]], %[[LIN32]] : i32
// CHECK: func.call @artsRecordDep(%[[GA]], %[[T]], %[[SA]], %[[READ]])
// CHECK: %[[NA:.*]] = arith.muli %[[ROWS]], %[[COLS]] : index
// CHECK: %[[NA32:.*]] = arith.index_cast %[[NA]] : index to i32
// CHECK: %[[BASE_B:.*]] = arith.addi %[[FIRST]], %[[NA32]] : i32
// CHECK: %[[CONC:.*]] = arith.constant 10 : i32
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[C3]]
// CHECK: %[[GB:.*]] = memref.load %[[B]][%[[K]]] : memref<3xi64>
// CHECK: %[[K32:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK: %[[SB:.*]] = arith.addi %[[BASE_B]], %[[K32]] : i32
// CHECK: func.call @artsRecordDep(%[[GB]], %[[T]], %[[SB]], %[[CONC]])
// CHECK: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK: %[[BASE_C:.*]] = arith.addi %[[BASE_B]], %[[THREE]] : i32
// CHECK: %[[WRITE:.*]] = arith.constant 9 : i32
// CHECK: %[[GC:.*]] = memref.load %[[C]][] : memref<i64>
// CHECK: call @artsRecordDep(%[[GC]], %[[T]], %[[BASE_C]], %[[WRITE]])
func.func @rec_dep_tables(%t: i64, %a: memref<?x?xi64>, %b: memref<3xi64>, %c: memref<i64>, %first: i32) {
  arts.rec_dep %t slot(%first) (%a, %b, %c : memref<?x?xi64>, memref<3xi64>, memref<i64>) modes [#arts.mode<in>, #arts.mode<concurrent>, #arts.mode<out>]
  return
}

// -----

// A creation whose task only its rec_deps use, right after it, becomes one
// artsEdtCreateWithDbs at the last rec_dep: one artsDbRun of five words per table (address
// of the first GUID, rows, columns, row stride, first slot | mode << 32) in a buffer on the
// function's stack. A 2-D view keeps its row stride, a 0-D table is one GUID; the tables
// of one rec_dep take consecutive slots. READ 8, CONCURRENT 10, WRITE 9, shifted by 32.
// CHECK-LABEL: func.func @create_with_dbs
// CHECK-SAME: (%[[A:.*]]: memref<?x?xi64, strided<[?, 1], offset: ?>>, %[[B:.*]]: memref<?xi64>, %[[C:.*]]: memref<i64>, %[[N:.*]]: i32, %[[R:.*]]: i32, %[[S:.*]]: i32)
// CHECK-NEXT: %[[RUNS:.*]] = memref.alloca() : memref<15xi64>
// CHECK: %[[E:.*]] = call @artsInitializeAndStartEpoch
// CHECK-NOT: artsRecordDep
// CHECK: %[[SLOT_A:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: memref.extract_strided_metadata %[[A]]
// CHECK: %[[ROW_STRIDE:.*]] = arith.index_cast %{{.*}}#0 : index to i64
// CHECK: memref.store %[[ROW_STRIDE]], %[[RUNS]][%{{.*}}] : memref<15xi64>
// CHECK: %[[READ:.*]] = arith.constant 34359738368 : i64
// CHECK: %[[WORD_A:.*]] = arith.ori %[[SLOT_A]], %[[READ]] : i64
// CHECK: memref.store %[[WORD_A]], %[[RUNS]]
// CHECK: %[[CONC:.*]] = arith.constant 42949672960 : i64
// CHECK: arith.ori %{{.*}}, %[[CONC]] : i64
// CHECK: %[[SLOT_C:.*]] = arith.extui %[[S]] : i32 to i64
// CHECK: %[[WRITE:.*]] = arith.constant 38654705664 : i64
// CHECK: %[[WORD_C:.*]] = arith.ori %[[SLOT_C]], %[[WRITE]] : i64
// CHECK: memref.store %[[WORD_C]], %[[RUNS]]
// CHECK: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK: call @artsEdtCreateWithDbs(%{{.*}}, %[[R]], %{{.*}}, %{{.*}}, %[[N]], %[[E]], %[[THREE]], %{{.*}}) : (!llvm.ptr, i32, i32, !llvm.ptr, i32, i64, i32, !llvm.ptr) -> i64
// CHECK-NOT: artsRecordDep
// CHECK: return
func.func private @__arts_edt_2(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  return
}
func.func @create_with_dbs(%a: memref<?x?xi64, strided<[?, 1], offset: ?>>, %b: memref<?xi64>, %c: memref<i64>, %n: i32, %r: i32, %s: i32) {
  %e = arts.create_epoch
  %pv = arts.edt_param_pack() : memref<?xi64>
  // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:8: edt_create @__arts_edt_2 -> artsEdtCreateWithDbs with 3 runs of datablocks from 2 rec_deps
  %t = arts.edt_create @__arts_edt_2(%pv : memref<?xi64>) deps(%n) route(%r) epoch(%e)
  %c0_i32 = arith.constant 0 : i32
  arts.rec_dep %t slot(%c0_i32) (%a, %b : memref<?x?xi64, strided<[?, 1], offset: ?>>, memref<?xi64>) modes [#arts.mode<in>, #arts.mode<concurrent>]
  arts.rec_dep %t slot(%s) (%c : memref<i64>) modes [#arts.mode<out>]
  arts.wait_on_epoch %e
  return
}

// -----

// A stable rec_dep reads as ARTS_DB_READ_STABLE (11): in a run's last word (11 << 32), and
// as artsRecordDep's mode when the creation is not fused.
// CHECK-LABEL: func.func @stable_reads
// CHECK: %[[STABLE_WORD:.*]] = arith.constant 47244640256 : i64
// CHECK: arith.ori %{{.*}}, %[[STABLE_WORD]] : i64
// CHECK: call @artsEdtCreateWithDbs(
// CHECK: %[[T:.*]] = call @artsEdtCreate(
// CHECK: memref.store
// CHECK: %[[STABLE:.*]] = arith.constant 11 : i32
// CHECK: call @artsRecordDep(%{{.*}}, %[[T]], %{{.*}}, %[[STABLE]])
func.func private @__arts_edt_4(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  return
}
func.func @stable_reads(%g: memref<1xi64>, %x: memref<i64>, %v: i64, %n: i32, %r: i32) {
  %c0_i32 = arith.constant 0 : i32
  %pv = arts.edt_param_pack() : memref<?xi64>
  %t0 = arts.edt_create @__arts_edt_4(%pv : memref<?xi64>) deps(%n) route(%r)
  arts.rec_dep %t0 slot(%c0_i32) (%g : memref<1xi64>) modes [#arts.mode<in>] {stable}
  %t1 = arts.edt_create @__arts_edt_4(%pv : memref<?xi64>) deps(%n) route(%r)
  memref.store %v, %x[] : memref<i64>
  arts.rec_dep %t1 slot(%c0_i32) (%g : memref<1xi64>) modes [#arts.mode<in>] {stable}
  return
}

// -----

// A stable concurrent rec_dep is ARTS_DB_CONCURRENT_STABLE (12): 12 << 32 in a run's last
// word, and artsRecordDep's mode when the creation is not fused.
// CHECK-LABEL: func.func @stable_concurrent_writes
// CHECK: %[[CSTABLE_WORD:.*]] = arith.constant 51539607552 : i64
// CHECK: arith.ori %{{.*}}, %[[CSTABLE_WORD]] : i64
// CHECK: call @artsEdtCreateWithDbs(
// CHECK: %[[T:.*]] = call @artsEdtCreate(
// CHECK: memref.store
// CHECK: %[[CSTABLE:.*]] = arith.constant 12 : i32
// CHECK: call @artsRecordDep(%{{.*}}, %[[T]], %{{.*}}, %[[CSTABLE]])
func.func private @__arts_edt_5(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  return
}
func.func @stable_concurrent_writes(%g: memref<1xi64>, %x: memref<i64>, %v: i64, %n: i32, %r: i32) {
  %c0_i32 = arith.constant 0 : i32
  %pv = arts.edt_param_pack() : memref<?xi64>
  %t0 = arts.edt_create @__arts_edt_5(%pv : memref<?xi64>) deps(%n) route(%r)
  arts.rec_dep %t0 slot(%c0_i32) (%g : memref<1xi64>) modes [#arts.mode<concurrent>] {stable}
  %t1 = arts.edt_create @__arts_edt_5(%pv : memref<?xi64>) deps(%n) route(%r)
  memref.store %v, %x[] : memref<i64>
  arts.rec_dep %t1 slot(%c0_i32) (%g : memref<1xi64>) modes [#arts.mode<concurrent>] {stable}
  return
}

// -----

// A stable out (or inout) rec_dep, a chunk's write of its own blocks that nothing else in its
// epoch acquires, is ARTS_DB_WRITE_STABLE (13): 13 << 32 in a run's last word. Without
// `stable` it is ARTS_DB_WRITE (9).
// CHECK-LABEL: func.func @stable_own_block_writes
// CHECK: %[[OSTABLE_WORD:.*]] = arith.constant 55834574848 : i64
// CHECK: arith.ori %{{.*}}, %[[OSTABLE_WORD]] : i64
// CHECK: call @artsEdtCreateWithDbs(
// CHECK: %[[WRITE_WORD:.*]] = arith.constant 38654705664 : i64
// CHECK: arith.ori %{{.*}}, %[[WRITE_WORD]] : i64
// CHECK: call @artsEdtCreateWithDbs(
func.func private @__arts_edt_9(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  return
}
func.func @stable_own_block_writes(%g: memref<1xi64>, %n: i32, %r: i32) {
  %c0_i32 = arith.constant 0 : i32
  %pv = arts.edt_param_pack() : memref<?xi64>
  %t0 = arts.edt_create @__arts_edt_9(%pv : memref<?xi64>) deps(%n) route(%r)
  arts.rec_dep %t0 slot(%c0_i32) (%g : memref<1xi64>) modes [#arts.mode<out>] {stable}
  %t1 = arts.edt_create @__arts_edt_9(%pv : memref<?xi64>) deps(%n) route(%r)
  arts.rec_dep %t1 slot(%c0_i32) (%g : memref<1xi64>) modes [#arts.mode<inout>]
  return
}

// -----

// Something with a memory effect between a creation and its rec_dep keeps them apart (the
// store could be what another task waits for): artsEdtCreate, then artsRecordDep.
// CHECK-LABEL: func.func @create_store_rec_dep
// CHECK: %[[T:.*]] = call @artsEdtCreate(
// CHECK: memref.store
// CHECK: call @artsRecordDep(%{{.*}}, %[[T]],
// CHECK-NOT: artsEdtCreateWithDbs
func.func private @__arts_edt_3(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) {
  return
}
func.func @create_store_rec_dep(%g: memref<1xi64>, %x: memref<i64>, %v: i64, %n: i32, %r: i32) {
  %pv = arts.edt_param_pack() : memref<?xi64>
  // DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:8: edt_create @__arts_edt_3 -> artsEdtCreate
  %t = arts.edt_create @__arts_edt_3(%pv : memref<?xi64>) deps(%n) route(%r)
  memref.store %v, %x[] : memref<i64>
  %c0_i32 = arith.constant 0 : i32
  arts.rec_dep %t slot(%c0_i32) (%g : memref<1xi64>) modes [#arts.mode<in>]
  return
}

// -----


// dep_gep reads depv[slot] as artsEdtDep_t {i64 guid; i32 mode; ptr ptr}: the pointer is
// field 2, the GUID field 0, each loaded only if used.
// CHECK-LABEL: func.func @dep_gep
// CHECK-SAME: (%[[DEPV:.*]]: !llvm.ptr, %[[S:.*]]: index)
// CHECK: %[[S0:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT: %[[A0:.*]] = llvm.getelementptr %[[DEPV]][%[[S0]], 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i64, i32, ptr)>
// CHECK-NEXT: %[[P0:.*]] = llvm.load %[[A0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[S1:.*]] = arith.index_cast %[[S]] : index to i64
// CHECK-NEXT: %[[A1:.*]] = llvm.getelementptr %[[DEPV]][%[[S1]], 0] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i64, i32, ptr)>
// CHECK-NEXT: %[[G1:.*]] = llvm.load %[[A1]] : !llvm.ptr -> i64
// CHECK-NEXT: return %[[G1]], %[[P0]] : i64, !llvm.ptr
func.func @dep_gep(%depv: !llvm.ptr, %s: index) -> (i64, !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %g0, %p0 = arts.dep_gep %depv[%c0] : !llvm.ptr -> !llvm.ptr
  %g1, %p1 = arts.dep_gep %depv[%s] : !llvm.ptr -> !llvm.ptr
  return %g1, %p0 : i64, !llvm.ptr
}

// -----

// GUID reservation with the datablock mode as type (read 8, write 9), payload creation, its
// early copy to the other nodes and destruction; puts from a raw pointer, a memref and a strided view (its offset applied);
// every runtime function is declared once, at the top, whatever the number of calls.
// CHECK: func.func private @artsReserveGuidRoute(i32, i32) -> i64
// CHECK-NEXT: func.func private @artsDbCreateWithGuid(i64, i64) -> !llvm.ptr
// CHECK-NEXT: func.func private @artsInitializeAndStartEpoch(i64, i32) -> i64
// CHECK-NEXT: func.func private @artsPutInDbEpoch(!llvm.ptr, i64, i64, i32, i32)
// CHECK-NEXT: func.func private @artsWaitOnHandle(i64) -> i1
// CHECK-NEXT: func.func private @artsDbShare(i64)
// CHECK-NEXT: func.func private @artsDbDestroy(i64)
// CHECK-NOT: func.func private @arts
// CHECK-LABEL: func.func @datablocks
// CHECK-SAME: (%[[ROUTE:.*]]: i32, %[[BYTES:.*]]: i64, %[[SRC:.*]]: !llvm.ptr, %[[BUF:.*]]: memref<?xf32>, %[[VIEW:.*]]: memref<4xf64, strided<[1], offset: ?>>, %[[OFF:.*]]: i32, %[[LEN:.*]]: i32)
// CHECK: %[[READ:.*]] = arith.constant 8 : i32
// CHECK: %[[R:.*]] = call @artsReserveGuidRoute(%[[READ]], %[[ROUTE]])
// CHECK: %[[WRITE:.*]] = arith.constant 9 : i32
// CHECK: %[[W:.*]] = call @artsReserveGuidRoute(%[[WRITE]], %[[ROUTE]])
// CHECK: call @artsDbCreateWithGuid(%[[W]], %[[BYTES]]) : (i64, i64) -> !llvm.ptr
// CHECK: %[[E:.*]] = call @artsInitializeAndStartEpoch
// CHECK: call @artsPutInDbEpoch(%[[SRC]], %[[E]], %[[R]], %[[OFF]], %[[LEN]])
// CHECK: %[[BI:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[BI64:.*]] = arith.index_cast %[[BI]] : index to i64
// CHECK: %[[BP:.*]] = llvm.inttoptr %[[BI64]] : i64 to !llvm.ptr
// CHECK: call @artsPutInDbEpoch(%[[BP]], %[[E]], %[[R]], %[[OFF]], %[[LEN]])
// CHECK: %[[VI:.*]] = memref.extract_aligned_pointer_as_index %[[VIEW]]
// CHECK: %[[VI64:.*]] = arith.index_cast %[[VI]] : index to i64
// CHECK: %[[VB:.*]] = llvm.inttoptr %[[VI64]] : i64 to !llvm.ptr
// CHECK: %{{.*}}, %[[VOFF:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[VIEW]]
// CHECK: %[[VOFF64:.*]] = arith.index_cast %[[VOFF]] : index to i64
// CHECK: %[[VP:.*]] = llvm.getelementptr %[[VB]][%[[VOFF64]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: call @artsPutInDbEpoch(%[[VP]], %[[E]], %[[R]], %[[OFF]], %[[LEN]])
// CHECK: call @artsWaitOnHandle(%[[E]])
// CHECK: call @artsDbShare(%[[W]]) : (i64) -> ()
// CHECK: call @artsDbDestroy(%[[W]]) : (i64) -> ()
// CHECK: call @artsDbDestroy(%[[R]]) : (i64) -> ()
func.func @datablocks(%route: i32, %bytes: i64, %src: !llvm.ptr, %buf: memref<?xf32>, %view: memref<4xf64, strided<[1], offset: ?>>, %off: i32, %len: i32) {
  %r = arts.reserve_guid <read> route(%route)
  %w = arts.reserve_guid <write> route(%route)
  %p = arts.db_create %w, %bytes : !llvm.ptr
  %e = arts.create_epoch
  arts.put_in_db_epoch %src, epoch(%e), db(%r), offset(%off), bytes(%len) : !llvm.ptr
  arts.put_in_db_epoch %buf, epoch(%e), db(%r), offset(%off), bytes(%len) : memref<?xf32>
  arts.put_in_db_epoch %view, epoch(%e), db(%r), offset(%off), bytes(%len) : memref<4xf64, strided<[1], offset: ?>>
  arts.wait_on_epoch %e
  arts.db_share %w
  arts.db_destroy %w
  arts.db_destroy %r
  return
}

// -----

// Fetches are the reverse of puts: artsGetFromDbEpoch(dst, epoch, db, offset, bytes) into a raw
// pointer or a memref's aligned pointer, counted in the epoch the host then waits on.
// CHECK: func.func private @artsGetFromDbEpoch(!llvm.ptr, i64, i64, i32, i32)
// CHECK-LABEL: func.func @fetches
// CHECK-SAME: (%[[G:.*]]: i64, %[[DST:.*]]: !llvm.ptr, %[[BUF:.*]]: memref<?xf32>, %[[OFF:.*]]: i32, %[[LEN:.*]]: i32)
// CHECK: %[[E:.*]] = call @artsInitializeAndStartEpoch
// CHECK: call @artsGetFromDbEpoch(%[[DST]], %[[E]], %[[G]], %[[OFF]], %[[LEN]]) : (!llvm.ptr, i64, i64, i32, i32) -> ()
// CHECK: %[[BI:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: %[[BI64:.*]] = arith.index_cast %[[BI]] : index to i64
// CHECK: %[[BP:.*]] = llvm.inttoptr %[[BI64]] : i64 to !llvm.ptr
// CHECK: call @artsGetFromDbEpoch(%[[BP]], %[[E]], %[[G]], %[[OFF]], %[[LEN]])
// CHECK: call @artsWaitOnHandle(%[[E]])
func.func @fetches(%g: i64, %dst: !llvm.ptr, %buf: memref<?xf32>, %off: i32, %len: i32) {
  %e = arts.create_epoch
  arts.get_from_db_epoch %dst, epoch(%e), db(%g), offset(%off), bytes(%len) : !llvm.ptr
  arts.get_from_db_epoch %buf, epoch(%e), db(%g), offset(%off), bytes(%len) : memref<?xf32>
  arts.wait_on_epoch %e
  return
}

// -----

// Topology queries are runtime calls; atomic adds become memref.atomic_rmw (addf for
// floats, addi for integers), which the memref lowering turns into llvm.atomicrmw.
// CHECK-LABEL: func.func @queries_atomics
// CHECK-SAME: (%[[ACC:.*]]: memref<?xf32>, %[[N:.*]]: memref<i32>, %[[I:.*]]: index, %[[X:.*]]: f32)
// Workers count over all nodes: worker = node * per-node workers + worker on the node,
// total = per-node workers * nodes.
// CHECK: %[[WL:.*]] = call @artsGetCurrentWorker() : () -> i32
// CHECK: %[[NODE:.*]] = call @artsGetCurrentNode() : () -> i32
// CHECK: %[[PER:.*]] = call @artsGetTotalWorkers() : () -> i32
// CHECK: %[[FIRST:.*]] = arith.muli %[[NODE]], %[[PER]] : i32
// CHECK: %[[W:.*]] = arith.addi %[[FIRST]], %[[WL]] : i32
// CHECK: %[[TW:.*]] = call @artsGetTotalWorkers() : () -> i32
// CHECK: %[[TN:.*]] = call @artsGetTotalNodes() : () -> i32
// CHECK: arith.muli %[[TW]], %[[TN]] : i32
// CHECK: call @artsGetCurrentNode() : () -> i32
// CHECK: call @artsGetTotalNodes() : () -> i32
// CHECK: memref.atomic_rmw addf %[[X]], %[[ACC]][%[[I]]] : (f32, memref<?xf32>) -> f32
// CHECK: memref.atomic_rmw addi %[[W]], %[[N]][] : (i32, memref<i32>) -> i32
func.func @queries_atomics(%acc: memref<?xf32>, %n: memref<i32>, %i: index, %x: f32) -> (i32, i32, i32, i32) {
  %a = arts.runtime_query <current_worker> : i32
  %b = arts.runtime_query <total_workers> : i32
  %c = arts.runtime_query <current_node> : i32
  %d = arts.runtime_query <total_nodes> : i32
  arts.atomic_add %x, %acc[%i] : memref<?xf32>
  arts.atomic_add %a, %n[] : memref<i32>
  return %a, %b, %c, %d : i32, i32, i32, i32
}

// -----

// A critical section: the body between the enter and exit calls of its name's lock, the
// 64-bit FNV-1a hash of the name (of "" for the unnamed section: the offset basis).
// CHECK-LABEL: func.func @critical
// CHECK: %[[ID:.*]] = arith.constant -3750763034362895579 : i64
// CHECK-NEXT: call @artsCriticalEnter(%[[ID]]) : (i64) -> ()
// CHECK-NEXT: memref.store
// CHECK-NEXT: %[[ID2:.*]] = arith.constant -3750763034362895579 : i64
// CHECK-NEXT: call @artsCriticalExit(%[[ID2]]) : (i64) -> ()
// CHECK-NOT: arts.critical
func.func @critical(%acc: memref<f32>, %x: f32) {
  arts.critical "" {
    memref.store %x, %acc[] : memref<f32>
  }
  return
}

// -----

// `int main(void)`: renamed mainBody; artsMain calls it without arguments, keeps its
// result and shuts the runtime down; main registers artsMain (no init hooks), runs artsRT
// and returns the program's exit code unless artsRT itself failed.
// CHECK: func.func private @artsShutdown()
// CHECK-LABEL: func.func @mainBody() -> i32
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT: return %[[C3]] : i32
// CHECK: llvm.mlir.global internal @__carts_exit_code(0 : i32)
// CHECK-LABEL: func.func @artsMain(%{{.*}}: i32, %{{.*}}: !llvm.ptr) {
// CHECK-NEXT: %[[CODE:.*]] = call @mainBody() : () -> i32
// CHECK-NEXT: %[[SLOT:.*]] = llvm.mlir.addressof @__carts_exit_code : !llvm.ptr
// CHECK-NEXT: llvm.store %[[CODE]], %[[SLOT]] : i32, !llvm.ptr
// CHECK-NEXT: call @artsShutdown() : () -> ()
// CHECK-NEXT: return
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[ARGC:.*]]: i32, %[[ARGV:.*]]: !llvm.ptr) -> i32 {
// CHECK-NEXT: %[[F:.*]] = constant @artsMain : (i32, !llvm.ptr) -> ()
// CHECK-NEXT: %[[FP:.*]] = builtin.unrealized_conversion_cast %[[F]] : (i32, !llvm.ptr) -> () to !llvm.ptr
// CHECK-NEXT: %[[N1:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %[[N2:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: call @artsSetEntryPoints(%[[FP]], %[[N1]], %[[N2]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT: %[[RC:.*]] = call @artsRT(%[[ARGC]], %[[ARGV]]) : (i32, !llvm.ptr) -> i32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[OK:.*]] = arith.cmpi eq, %[[RC]], %[[ZERO]] : i32
// CHECK-NEXT: %[[SLOT2:.*]] = llvm.mlir.addressof @__carts_exit_code : !llvm.ptr
// CHECK-NEXT: %[[EXIT:.*]] = llvm.load %[[SLOT2]] : !llvm.ptr -> i32
// CHECK-NEXT: %[[RES:.*]] = arith.select %[[OK]], %[[EXIT]], %[[RC]] : i32
// CHECK-NEXT: return %[[RES]] : i32
// DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:1: main -> mainBody (); generated artsMain and main; initPerNode=null initPerWorker=null
func.func @main() -> i32 {
  %c3 = arith.constant 3 : i32
  return %c3 : i32
}

// -----

// `int main(int argc, char **argv)`: the arguments go through, a recursive call follows
// the rename, and a module's initPerNode is handed to the runtime.
// CHECK-LABEL: func.func @mainBody(%{{.*}}: i32, %{{.*}}: !llvm.ptr) -> i32
// CHECK: func.call @mainBody(%{{.*}}, %{{.*}}) : (i32, !llvm.ptr) -> i32
// CHECK-LABEL: func.func @artsMain(
// CHECK-SAME: %[[ARGC:.*]]: i32, %[[ARGV:.*]]: !llvm.ptr) {
// CHECK-NEXT: call @mainBody(%[[ARGC]], %[[ARGV]]) : (i32, !llvm.ptr) -> i32
// CHECK-LABEL: func.func @main(
// CHECK: %[[INIT:.*]] = constant @initPerNode : (i32, i32, !llvm.ptr) -> ()
// CHECK: %[[INITP:.*]] = builtin.unrealized_conversion_cast %[[INIT]]
// CHECK: %[[NONE:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: call @artsSetEntryPoints(%{{.*}}, %[[INITP]], %[[NONE]])
func.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
  %c = arith.constant 0 : i32
  %again = arith.cmpi sgt, %argc, %c : i32
  %r = scf.if %again -> i32 {
    %m1 = arith.constant -1 : i32
    %r2 = func.call @main(%m1, %argv) : (i32, !llvm.ptr) -> i32
    scf.yield %r2 : i32
  } else {
    scf.yield %argc : i32
  }
  return %r : i32
}
func.func @initPerNode(%node: i32, %argc: i32, %argv: !llvm.ptr) {
  return
}

// -----

// An alloca_scope left inside a loop (per-iteration private copies) is its body between a
// stack save and restore, while the body is still one block; a scope without allocas is
// just its body.
// CHECK-LABEL: func.func @scopes
// CHECK: scf.for
// CHECK-NEXT: %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT: %[[A:.*]] = memref.alloca() : memref<i32>
// CHECK-NEXT: memref.store %{{.*}}, %[[A]][] : memref<i32>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[A]][] : memref<i32>
// CHECK-NEXT: llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT: memref.store %[[V]], %{{.*}}[] : memref<i32>
// CHECK-NOT: memref.alloca_scope
func.func @scopes(%out: memref<i32>, %x: i32) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.alloca_scope -> i32 {
      %a = memref.alloca() : memref<i32>
      memref.store %x, %a[] : memref<i32>
      %l = memref.load %a[] : memref<i32>
      memref.alloca_scope.return %l : i32
    }
    memref.alloca_scope {
      memref.store %v, %out[] : memref<i32>
    }
  }
  return
}

// -----

// exit() is the runtime's cartsExit: the C library's on one node; on several it ends the
// run without ending the node's process.
// CHECK-LABEL: func.func private @cartsExit(i32)
// CHECK-LABEL: func.func @mainBody() -> i32
// CHECK: call @cartsExit(%{{.*}}) : (i32) -> ()
// CHECK-NOT: @exit
// DEBUG: [arts-to-llvm] {{.*}}convert.mlir:[[@LINE+1]]:1: exit -> cartsExit
func.func private @exit(i32)
func.func @main() -> i32 {
  %c2 = arith.constant 2 : i32
  func.call @exit(%c2) : (i32) -> ()
  return %c2 : i32
}

//--- program.mlir

// The whole stage: with the upstream conversion after the pass, only the LLVM dialect is
// left; task functions are passed by address.
// LLVM-NOT: arts.
// LLVM-NOT: func.
// LLVM-NOT: memref.
// LLVM-NOT: builtin.unrealized_conversion_cast
// LLVM: llvm.func @artsEdtCreateWithDbs(!llvm.ptr, i32, i32, !llvm.ptr, i32, i64, i32, !llvm.ptr) -> i64
// LLVM: llvm.func @__arts_edt_0(%{{.*}}: i32, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: !llvm.ptr)
// LLVM: llvm.func @mainBody() -> i32
// LLVM: %[[FN:.*]] = llvm.mlir.addressof @__arts_edt_0 : !llvm.ptr
// LLVM: llvm.call @artsEdtCreateWithDbs(%[[FN]],
// LLVM: llvm.func @artsMain(
// LLVM: llvm.func @main(
// LLVM: %[[MAIN:.*]] = llvm.mlir.addressof @artsMain : !llvm.ptr
// LLVM: llvm.call @artsSetEntryPoints(%[[MAIN]],
// LLVM-NOT: arts.
// LLVM-NOT: func.
// LLVM-NOT: memref.
// LLVM-NOT: scf.
memref.global "private" @acc : memref<f64> = dense<0.0>
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  %x = arts.edt_param_unpack %paramv : !llvm.ptr -> (f64)
  %c0 = arith.constant 0 : index
  %guid, %ptr = arts.dep_gep %depv[%c0] : !llvm.ptr -> !llvm.ptr
  llvm.store %x, %ptr : f64, !llvm.ptr
  %acc = memref.get_global @acc : memref<f64>
  arts.atomic_add %x, %acc[] : memref<f64>
  return
}
func.func @main() -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %bytes = arith.constant 8 : i64
  %x = arith.constant 2.5 : f64
  %guids = memref.alloc() : memref<1xi64>
  %g = arts.reserve_guid <write> route(%c0_i32)
  %p = arts.db_create %g, %bytes : !llvm.ptr
  %c0 = arith.constant 0 : index
  memref.store %g, %guids[%c0] : memref<1xi64>
  %e = arts.create_epoch
  %pv = arts.edt_param_pack(%x : f64) : memref<?xi64>
  %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c0_i32) epoch(%e)
  arts.rec_dep %t slot(%c0_i32) (%guids : memref<1xi64>) modes [#arts.mode<out>]
  arts.wait_on_epoch %e
  arts.db_destroy %g
  memref.dealloc %guids : memref<1xi64>
  return %c0_i32 : i32
}

//--- leftover.mlir

// A high-level op left over is reported at its location; no output file is written.
// ERROR: leftover.mlir:[[@LINE+3]]:3: error: 'arts.edt' is left for arts-to-llvm; pre-lowering must lower it first
// ERROR-NOT: error
func.func @leftover(%r: i32) {
  arts.edt <task> <intranode> route(%r) {
  }
  return
}

//--- invalid.mlir

// High-level ARTS ops are pre-lowering's job; each one left is reported (its nested ops
// are not), and the lowered ops next to them stay untouched.
func.func @left_over(%r: i32, %n: index, %m: index) {
  // expected-error @+1 {{'arts.db_alloc' is left for arts-to-llvm; pre-lowering must lower it first}}
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%n] elementSizes[%m] : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{'arts.epoch' is left for arts-to-llvm; pre-lowering must lower it first}}
  %e = arts.epoch {
    arts.edt <task> <intranode> route(%r) {
    }
  }
  %t = arts.create_epoch
  return
}

// -----

// A fetch (or put) needs the address of plain numbers: a memref of index has no C element type.
func.func @fetch_into_index_buffer(%g: i64, %e: i64, %buf: memref<?xindex>, %off: i32, %len: i32) {
  // expected-error @+1 {{cannot take the address of a memref of 'index'}}
  arts.get_from_db_epoch %buf, epoch(%e), db(%g), offset(%off), bytes(%len) : memref<?xindex>
  return
}

// -----

// Memrefs are never packed: pre-lowering packs the sizes a task needs instead.
func.func @pack_memref(%x: i32, %m: memref<?xf32>) {
  // expected-error @+1 {{cannot pack value #1 of type 'memref<?xf32>' into an EDT parameter word (memrefs are never packed)}}
  %pv = arts.edt_param_pack(%x, %m : i32, memref<?xf32>) : memref<?xi64>
  return
}

// -----

// Only the EDT signature can be a task.
func.func private @not_an_edt(%x: i32)
func.func @bad_outlined(%pv: memref<?xi64>, %r: i32) {
  // expected-error @+1 {{'@not_an_edt' has type '(i32) -> ()', expected the EDT signature '(i32, !llvm.ptr, i32, !llvm.ptr) -> ()'}}
  %t = arts.edt_create @not_an_edt(%pv : memref<?xi64>) deps(%r) route(%r)
  return
}

// -----

// A main with another signature cannot be started by the runtime.
// expected-error @+1 {{'main' has type '(i32) -> i32'; expected 'int main(void)' () -> i32 or 'int main(int, char **)' (i32, !llvm.ptr) -> i32}}
func.func @main(%x: i32) -> i32 {
  return %x : i32
}

// -----

// The names of the generated entry points are taken.
func.func @main() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
// expected-error @+1 {{'artsMain' is reserved for the generated entry points}}
func.func @artsMain(%argc: i32, %argv: !llvm.ptr) {
  return
}

// -----

// A symbol named like a runtime function must be its declaration.
// expected-error @+1 {{'artsRT' is a runtime function; expected a declaration 'func.func private @artsRT' of type '(i32, !llvm.ptr) -> i32'}}
func.func private @artsRT(i64) -> i32
