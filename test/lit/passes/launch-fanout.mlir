// arts-launch-fanout: on one node and at 4 or more workers, launch loops whose tasks record only
// stable dependences are cut into groups of `per-launcher` (4) iterations, each run by a
// launcher task created in the same epoch; of the eligible loops launching into one epoch from
// one block, the creator launches the last group of the last loop itself. Launcher n asks for
// worker threads-1-n. Other launch loops stay with their creator. Independent loops of fewer
// chunks than workers launching into one epoch ask for different workers (`spread`).
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-launch-fanout,canonicalize,cse)' | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-launch-fanout)' --debug-only=launch-fanout 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-launch-fanout{per-launcher=0})' | FileCheck %s --check-prefix=OFF
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-launch-fanout{per-launcher=0},canonicalize,cse)' | FileCheck %s --check-prefix=SPREAD
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-launch-fanout{spread=false},canonicalize,cse)' | FileCheck %s --check-prefix=NOSPREAD

// Three loops of 7 stable tasks in one epoch (the q/k/v matmuls' shape): the first two go to
// two launchers each (iterations 0..3 and 4..6), the third to one launcher (0..3), and the
// creator launches its iterations 4..6. Launchers ask for workers 15, 14, 13, 12, 11 (routes
// count from 1).
// CHECK-LABEL: func.func private @__arts_launch_0(
// CHECK-SAME: attributes {arts.edt_function}
// CHECK: %[[P:.*]]:4 = arts.edt_param_unpack %{{.*}} : !llvm.ptr -> (index, index, i64, i64)
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[P]]#3 : i64 to !llvm.ptr
// CHECK: %[[GUIDS:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<16xi64>
// CHECK: scf.for %[[I:.*]] = %[[P]]#0 to %[[P]]#1 step %{{.*}} {
// CHECK: %[[T:.*]] = arts.edt_create @__arts_edt_0(%{{.*}}) deps(%{{.*}}) route(%{{.*}}) epoch(%[[P]]#2)
// CHECK: arts.rec_dep %[[T]] slot(%{{.*}}) (%[[GUIDS]] : memref<16xi64>) modes [#arts.mode<in>] {stable}
// CHECK: } {arts.launch_loop}
// CHECK: func.func private @__arts_launch_1(
// CHECK: func.func private @__arts_launch_2(
// CHECK-LABEL: func.func @three_loops
// CHECK: %[[E:.*]] = arts.create_epoch
// CHECK: scf.for %[[G:.*]] = %c0 to %c2 step %c1 {
// CHECK: arts.edt_create @__arts_launch_0({{.*}}) deps(%c0_i32) route(%{{.*}}) epoch(%[[E]])
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK: arts.edt_create @__arts_launch_1({{.*}}) deps(%c0_i32) route(%{{.*}}) epoch(%[[E]])
// CHECK: arts.edt_create @__arts_launch_2({{.*}}) deps(%c0_i32) route(%c12_i32) epoch(%[[E]])
// CHECK: scf.for %{{.*}} = %c4 to %c7 step %c1 {
// CHECK: arts.edt_create @__arts_edt_2(
// CHECK: } {arts.launch_loop}
// CHECK-NEXT: arts.wait_on_epoch %[[E]]
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+22]]:3: launch loop shared: groups of 4 launches each become a launcher task @__arts_launch_0
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+28]]:3: launch loop shared: groups of 4 launches each become a launcher task @__arts_launch_1
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+32]]:3: launch loop shared: groups of 4 launches each become a launcher task @__arts_launch_2; the creator launches the last group itself
// OFF-LABEL: func.func @three_loops
// OFF-NOT: __arts_launch
module attributes {arts.nodes = 1 : i64, arts.threads = 16 : i64} {
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func private @__arts_edt_1(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func private @__arts_edt_2(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @three_loops(%x: memref<16xi64>, %w: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %e = arts.create_epoch
  scf.for %i = %c0 to %c7 step %c1 {
    %r0 = arith.index_cast %i : index to i32
    %r = arith.addi %r0, %c1_i32 : i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop}
  scf.for %i = %c0 to %c7 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_1(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%w : memref<?xi64>) modes [#arts.mode<concurrent>] {stable}
  } {arts.launch_loop}
  scf.for %i = %c0 to %c7 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_2(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<16xi64>) modes [#arts.mode<out>] {stable}
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  return
}
}

// -----

// A loop of unknown trip count: its launcher count is ceil(trips / 4) - 1, computed where the
// loop was; the creator's part starts after the launchers' groups. A dynamic GUID table
// travels as its address and extent.
// CHECK-LABEL: func.func private @__arts_launch_0(
// CHECK: arts.edt_param_unpack %{{.*}} : !llvm.ptr -> (index, index, i64, i64, index)
// CHECK-LABEL: func.func @dynamic_trips
// CHECK: %[[E:.*]] = arts.create_epoch
// CHECK: %[[GROUPS:.*]] = arith.ceildivsi %{{.*}}, %c4
// CHECK: %[[HANDED:.*]] = arith.maxsi
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<?xi64> -> index
// CHECK: %[[DIM:.*]] = memref.dim
// CHECK: scf.for %[[G:.*]] = %c0 to %[[HANDED]] step %c1 {
// CHECK: arts.edt_param_pack(%{{.*}}, %{{.*}}, %[[E]], %[[ADDR]], %[[DIM]] :
// CHECK: arts.edt_create @__arts_launch_0(
// CHECK: %[[START:.*]] = arith.muli %[[HANDED]], %c4
// CHECK: scf.for %{{.*}} = %[[START]] to %{{.*}} step %c1 {
// CHECK: } {arts.launch_loop}
module attributes {arts.nodes = 1 : i64, arts.threads = 8 : i64} {
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @dynamic_trips(%n: index, %g: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %e = arts.create_epoch
  scf.for %i = %c0 to %n step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%g : memref<?xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  return
}
}

// -----

// What stays with the creator: a dependence that is not stable (its place in the datablock's
// order is the creator's), a store in the body, a loop of two launches, a single group, a task
// outside any epoch.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: __arts_launch
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+18]]:3: the creator keeps this launch loop: a dependence takes its place in its datablock's order (not stable)
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+22]]:3: the creator keeps this launch loop: 'memref.store' is not a computation of values
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+38]]:3: the creator keeps this launch loop: a task is created outside any epoch of the loop's function
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+26]]:3: the creator keeps this launch loop: 2 launches are fewer than a launcher is worth
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+30]]:3: the creator keeps this launch loop: its launches are the one group the creator makes itself
module attributes {arts.nodes = 1 : i64, arts.threads = 16 : i64} {
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @kept(%g: memref<16xi64>, %log: memref<16xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %e = arts.create_epoch
  scf.for %i = %c0 to %c16 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%g : memref<16xi64>) modes [#arts.mode<inout>]
  } {arts.launch_loop}
  scf.for %i = %c0 to %c16 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    memref.store %t, %log[%i] : memref<16xi64>
    arts.rec_dep %t slot(%c0_i32) (%g : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop}
  scf.for %i = %c0 to %c2 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%g : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop}
  scf.for %i = %c0 to %c4 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%g : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  scf.for %i = %c0 to %c16 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32)
    arts.rec_dep %t slot(%c0_i32) (%g : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop}
  return
}
}

// -----

// Fewer than 4 workers, or several nodes: nothing changes.
// CHECK-LABEL: func.func @two_workers
// CHECK-NOT: __arts_launch
// CHECK-LABEL: func.func @two_nodes
// CHECK-NOT: __arts_launch
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @two_workers(%g: memref<16xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %e = arts.create_epoch
  scf.for %i = %c0 to %c16 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%g : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  return
}
}

// -----

module attributes {arts.nodes = 2 : i64, arts.threads = 16 : i64} {
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @two_nodes(%g: memref<16xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %e = arts.create_epoch
  scf.for %i = %c0 to %c16 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%g : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  return
}
}

// -----

// Spread: three 2-chunk loops into one epoch, none touching what another writes, ask for
// workers 0-1, 2-3 and 4-5 (routes count workers from 1); a fourth reads what the first
// writes and starts again at worker 0; a loop of 16 chunks (every worker) stays as it is and
// so does the one after it.
// SPREAD-LABEL: func.func @spread
// SPREAD: scf.for %[[I:.*]] = %c0 to %c2 step %c1 {
// SPREAD: %[[R:.*]] = arith.index_cast %{{.*}} : index to i32
// SPREAD-NOT: arith.addi %[[R]]
// SPREAD: arts.edt_create @__arts_edt_0({{.*}}) deps(%c2_i32) route(%[[R]])
// SPREAD: scf.for
// SPREAD: %[[R2:.*]] = arith.index_cast %{{.*}} : index to i32
// SPREAD: %[[S2:.*]] = arith.addi %[[R2]], %c2_i32 : i32
// SPREAD: arts.edt_create @__arts_edt_0({{.*}}) deps(%c2_i32) route(%[[S2]])
// SPREAD: scf.for
// SPREAD: %[[R3:.*]] = arith.index_cast %{{.*}} : index to i32
// SPREAD: %[[S3:.*]] = arith.addi %[[R3]], %c4_i32 : i32
// SPREAD: arts.edt_create @__arts_edt_0({{.*}}) deps(%c2_i32) route(%[[S3]])
// SPREAD: scf.for
// SPREAD: %[[R4:.*]] = arith.index_cast %{{.*}} : index to i32
// SPREAD-NOT: arith.addi %[[R4]]
// SPREAD: arts.edt_create @__arts_edt_0({{.*}}) deps(%c2_i32) route(%[[R4]])
// SPREAD: scf.for %{{.*}} = %c0 to %c16
// SPREAD: %[[R5:.*]] = arith.index_cast %{{.*}} : index to i32
// SPREAD-NOT: arith.addi %[[R5]]
// SPREAD: arts.edt_create @__arts_edt_0({{.*}}) deps(%c2_i32) route(%[[R5]])
// SPREAD: scf.for
// SPREAD: %[[R6:.*]] = arith.index_cast %{{.*}} : index to i32
// SPREAD-NOT: arith.addi %[[R6]]
// SPREAD: arts.edt_create @__arts_edt_0({{.*}}) deps(%c2_i32) route(%[[R6]])
// SPREAD: arts.wait_on_epoch
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+26]]:3: launch loop of 2 chunks: its routes move by 2, past the chunks launched before it in its epoch
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+33]]:3: launch loop of 2 chunks: its routes move by 4, past the chunks launched before it in its epoch
// NOSPREAD-LABEL: func.func @spread
// NOSPREAD-NOT: arith.addi %{{.*}}, %c{{[0-9]+}}_i32 : i32
module attributes {arts.nodes = 1 : i64, arts.threads = 16 : i64} {
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @spread(%x: memref<1xi64>, %q: memref<1xi64>, %k: memref<1xi64>, %v: memref<1xi64>,
                  %o: memref<1xi64>, %w: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %e = arts.create_epoch
  scf.for %i = %c0 to %c2 step %c1 {
    %b = arith.addi %i, %c1 : index
    %r = arith.index_cast %b : index to i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c2_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<1xi64>) modes [#arts.mode<in>]
    arts.rec_dep %t slot(%c1_i32) (%q : memref<1xi64>) modes [#arts.mode<concurrent>]
  } {arts.launch_loop}
  scf.for %i = %c0 to %c2 step %c1 {
    %b = arith.addi %i, %c1 : index
    %r = arith.index_cast %b : index to i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c2_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<1xi64>) modes [#arts.mode<in>]
    arts.rec_dep %t slot(%c1_i32) (%k : memref<1xi64>) modes [#arts.mode<concurrent>]
  } {arts.launch_loop}
  scf.for %i = %c0 to %c2 step %c1 {
    %b = arith.addi %i, %c1 : index
    %r = arith.index_cast %b : index to i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c2_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<1xi64>) modes [#arts.mode<in>]
    arts.rec_dep %t slot(%c1_i32) (%v : memref<1xi64>) modes [#arts.mode<concurrent>]
  } {arts.launch_loop}
  scf.for %i = %c0 to %c2 step %c1 {
    %b = arith.addi %i, %c1 : index
    %r = arith.index_cast %b : index to i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c2_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%q : memref<1xi64>) modes [#arts.mode<in>]
    arts.rec_dep %t slot(%c1_i32) (%o : memref<1xi64>) modes [#arts.mode<concurrent>]
  } {arts.launch_loop}
  scf.for %i = %c0 to %c16 step %c1 {
    %b = arith.addi %i, %c1 : index
    %r = arith.index_cast %b : index to i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c2_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<1xi64>) modes [#arts.mode<in>]
    arts.rec_dep %t slot(%c1_i32) (%w : memref<1xi64>) modes [#arts.mode<concurrent>]
  } {arts.launch_loop}
  scf.for %i = %c0 to %c2 step %c1 {
    %b = arith.addi %i, %c1 : index
    %r = arith.index_cast %b : index to i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c2_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<1xi64>) modes [#arts.mode<in>]
    arts.rec_dep %t slot(%c1_i32) (%v : memref<1xi64>) modes [#arts.mode<in>]
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  return
}
}

// -----

// Tasks the spread does not follow (created inside another region) reset it: the loop after
// them asks for workers from 0 again, though it touches nothing the first loop writes.
// SPREAD-LABEL: func.func @spread_reset
// SPREAD: scf.for
// SPREAD: scf.for
// SPREAD: scf.for
// SPREAD: %[[R:.*]] = arith.index_cast %{{.*}} : index to i32
// SPREAD-NOT: arith.addi %[[R]]
// SPREAD: arts.edt_create @__arts_edt_0({{.*}}) deps(%c1_i32) route(%[[R]])
// SPREAD: arts.wait_on_epoch
module attributes {arts.nodes = 1 : i64, arts.threads = 16 : i64} {
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @spread_reset(%q: memref<1xi64>, %k: memref<1xi64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %e = arts.create_epoch
  scf.for %i = %c0 to %c2 step %c1 {
    %b = arith.addi %i, %c1 : index
    %r = arith.index_cast %b : index to i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%q : memref<1xi64>) modes [#arts.mode<concurrent>]
  } {arts.launch_loop}
  scf.for %i = %c0 to %n step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c0_i32) route(%c1_i32) epoch(%e)
  }
  scf.for %i = %c0 to %c2 step %c1 {
    %b = arith.addi %i, %c1 : index
    %r = arith.index_cast %b : index to i32
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%k : memref<1xi64>) modes [#arts.mode<concurrent>]
  } {arts.launch_loop}
  arts.wait_on_epoch %e
  return
}
}

// -----

// The same loop twice, with the chunk weight for-lowering records: 2^20 operations a chunk or
// more keeps the loop with its creator (its launches are a small part of tasks that long); a
// lighter one is shared.
// CHECK-LABEL: func.func private @__arts_launch_0(
// CHECK-LABEL: func.func @heavy_tasks
// CHECK: %[[E:.*]] = arts.create_epoch
// CHECK-NEXT: scf.for
// CHECK: arts.edt_create @__arts_edt_0(
// CHECK: } {arts.chunk_ops = 1048576 : i64, arts.launch_loop}
// CHECK: arts.edt_create @__arts_launch_0(
// CHECK-NOT: arts.edt_create @__arts_launch_
// CHECK: arts.wait_on_epoch %[[E]]
// DEBUG: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+13]]:3: the creator keeps this launch loop: its tasks are heavy (1048576 operations a chunk)
// DEBUG-NEXT: [launch-fanout] {{.*}}launch-fanout.mlir:[[#@LINE+17]]:3: launch loop shared: groups of 4 launches each become a launcher task @__arts_launch_0; the creator launches the last group itself
module attributes {arts.nodes = 1 : i64, arts.threads = 16 : i64} {
func.func private @__arts_edt_0(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @heavy_tasks(%x: memref<16xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %e = arts.create_epoch
  scf.for %i = %c0 to %c16 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop, arts.chunk_ops = 1048576 : i64}
  scf.for %i = %c0 to %c16 step %c1 {
    %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%c1_i32) epoch(%e)
    arts.rec_dep %t slot(%c0_i32) (%x : memref<16xi64>) modes [#arts.mode<in>] {stable}
  } {arts.launch_loop, arts.chunk_ops = 1048575 : i64}
  arts.wait_on_epoch %e
  return
}
}
