// arts-create-dbs: every allocation a task touches becomes a coarse datablock, each task
// acquires it with the mode its accesses imply, and code outside tasks goes through the
// table; memrefs without a visible allocation are located errors.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/create.mlir --split-input-file --pass-pipeline='builtin.module(arts-create-dbs,arts-verify-edt-deps)' | FileCheck %s
// RUN: carts-opt %t/create.mlir --pass-pipeline='builtin.module(arts-create-dbs)' --debug-only=create-dbs,db 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/create.mlir --pass-pipeline='builtin.module(arts-create-dbs)' --debug-only=create-dbs 2>&1 >/dev/null | FileCheck %s --check-prefix=ARG
// RUN: carts-opt %t/create.mlir --pass-pipeline='builtin.module(arts-create-dbs)' --debug-only=create-dbs 2>&1 >/dev/null | FileCheck %s --check-prefix=GLOBAL
// RUN: carts-opt %t/create.mlir --pass-pipeline='builtin.module(arts-create-dbs)' --debug-only=create-dbs 2>&1 >/dev/null | FileCheck %s --check-prefix=UNORD
// RUN: carts-opt %t/nodes.mlir --pass-pipeline='builtin.module(arts-create-dbs)' | FileCheck %s --check-prefix=NODES
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-create-dbs)' --verify-diagnostics
// RUN: carts-opt %t/create.mlir --pass-pipeline='builtin.module(arts-create-dbs,arts-create-dbs)' | carts-opt --pass-pipeline='builtin.module(arts-verify-edt-deps)' | FileCheck %s --check-prefix=TWICE

//--- create.mlir

// A read array and a written array: in / out acquires, host init through the table, dealloc -> db_free.
// CHECK-LABEL: func.func @copy
// CHECK: %[[GA:.*]], %[[PA:.*]] = arts.db_alloc <in> <read> <coarse> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%[[N:.*]]] : memref<?xi64>, memref<?xmemref<?xf32>>
// CHECK: %[[HA:.*]] = arts.db_ref %[[PA]][%{{.*}}] : memref<?xmemref<?xf32>> -> memref<?xf32>
// CHECK: %[[GB:.*]], %[[PB:.*]] = arts.db_alloc <inout> <write> <coarse>
// CHECK: memref.store %{{.*}}, %[[HA]][%{{.*}}] : memref<?xf32>
// CHECK: %{{.*}}, %[[QA:.*]] = arts.db_acquire <in> (%[[GA]], %[[PA]] : memref<?xi64>, memref<?xmemref<?xf32>>) : memref<?xi64>, memref<?xmemref<?xf32>>
// CHECK: %{{.*}}, %[[QB:.*]] = arts.db_acquire <out> (%[[GB]], %[[PB]]
// CHECK: arts.edt <parallel> <intranode> route(%{{.*}}) (%[[QA]], %[[QB]] : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) {
// CHECK-NEXT: ^bb0(%[[VA:.*]]: memref<?xmemref<?xf32>>, %[[VB:.*]]: memref<?xmemref<?xf32>>):
// CHECK-DAG: arts.db_ref %[[VA]]
// CHECK-DAG: arts.db_ref %[[VB]]
// CHECK: arts.db_release(%[[VA]] : memref<?xmemref<?xf32>>)
// CHECK-NEXT: arts.db_release(%[[VB]] : memref<?xmemref<?xf32>>)
// CHECK-NOT: no_verify
// CHECK: arts.db_free(%[[GA]], %[[PA]]
// CHECK: arts.db_free(%[[GB]], %[[PB]]
// CHECK-NOT: memref.dealloc
func.func @copy(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %a[%i] : memref<?xf32>
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) {
    ^bb0(%i: index):
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %b[%i] : memref<?xf32>
    }
    arts.barrier
  }
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// -----

// A 2-D array read and written by the task is inout; a stack scalar becomes a datablock freed at the block end.
// CHECK-LABEL: func.func @inout_2d
// CHECK: arts.db_alloc <inout> <write> <coarse> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}, %{{.*}}] : memref<?xi64>, memref<?xmemref<?x8xf64>>
// CHECK: arts.db_alloc <inout> <write> <coarse> route(%{{.*}}) sizes[%{{.*}}] elementSizes[] : memref<?xi64>, memref<?xmemref<f64>>
// CHECK: arts.db_acquire <inout>
// CHECK: arts.db_acquire <out>
// CHECK: arts.db_free
// CHECK-NEXT: arts.db_free
// CHECK-NEXT: return
func.func @inout_2d(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %m = memref.alloc(%n) : memref<?x8xf64>
  %s = memref.alloca() : memref<f64>
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) {
    ^bb0(%i: index):
      %v = memref.load %m[%i, %c0] : memref<?x8xf64>
      %w = arith.addf %v, %v : f64
      memref.store %w, %m[%i, %c1] : memref<?x8xf64>
      memref.store %w, %s[] : memref<f64>
    }
  }
  memref.dealloc %m : memref<?x8xf64>
  return
}

// -----

// Run twice, the pass makes nothing new: one table per array, one acquire per use.
// TWICE-LABEL: func.func @copy
// TWICE-COUNT-2: arts.db_alloc
// TWICE-NOT: arts.db_alloc
// TWICE-COUNT-2: arts.db_acquire
// TWICE-NOT: arts.db_acquire
// TWICE-LABEL: func.func @inout_2d

// DEBUG: [create-dbs] {{.*}}create.mlir:[[#]]:8: datablock for memref<?xf32> (memref.alloc): partition=coarse blocks=1
// DEBUG: [db] {{.*}}create.mlir:[[#]]:3: acquire memref<?xmemref<?xf32>> mode=in partition=coarse
// DEBUG: [db] {{.*}}create.mlir:[[#]]:3: acquire memref<?xmemref<?xf32>> mode=out partition=coarse

// -----

// Declared dependences: a task that only names a scalar in `arts.depend <out>` still
// acquires its datablock (out); a depend <in> on an array the task also writes makes
// inout; a cast of the array (a depend item's view) is made inside the task, so the
// task acquires the allocation itself.
// CHECK-LABEL: func.func @declared
// CHECK: %[[GT:.*]], %[[PT:.*]] = arts.db_alloc <inout> <write> <coarse> {{.*}} : memref<?xi64>, memref<?xmemref<i32>>
// CHECK: %[[GA:.*]], %[[PA:.*]] = arts.db_alloc <inout> <write> <coarse> {{.*}} : memref<?xi64>, memref<?xmemref<8xf64>>
// CHECK: %{{.*}}, %[[QT:.*]] = arts.db_acquire <out> (%[[GT]], %[[PT]]
// CHECK: arts.edt <task> <intranode> route(%{{.*}}) (%[[QT]] : memref<?xmemref<i32>>) {
// CHECK: arts.depend <out>
// CHECK: %{{.*}}, %[[QA:.*]] = arts.db_acquire <inout> (%[[GA]], %[[PA]]
// CHECK: arts.edt <task> <intranode> route(%{{.*}}) (%[[QA]] : memref<?xmemref<8xf64>>) {
// CHECK: memref.cast %{{.*}} : memref<8xf64> to memref<?xf64>
// CHECK: arts.depend <in>
func.func @declared() {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %f = arith.constant 1.0 : f64
  %token = memref.alloca() : memref<i32>
  %a = memref.alloc() : memref<8xf64>
  %view = memref.cast %a : memref<8xf64> to memref<?xf64>
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    arts.depend <out> %token : memref<i32>
  }
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    arts.depend <in> %view : memref<?xf64>
    memref.store %f, %a[%c0] : memref<8xf64>
  }
  memref.dealloc %a : memref<8xf64>
  return
}

// -----

// The address of a scalar as a one-element array (`&total` passed for `long *`): the view
// is made inside the task, which acquires the scalar's datablock.
// CHECK-LABEL: func.func @scalar_address
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc <inout> <write> <coarse> {{.*}} : memref<?xi64>, memref<?xmemref<i64>>
// CHECK: %{{.*}}, %[[Q:.*]] = arts.db_acquire <concurrent> (%[[G]], %[[P]]
// CHECK: arts.edt <task> <intranode> route(%{{.*}}) (%[[Q]] : memref<?xmemref<i64>>) {
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1], strides: [1] : memref<i64> to memref<1xi64>
func.func @scalar_address() {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %total = memref.alloca() : memref<i64>
  %ptr = memref.reinterpret_cast %total to offset: [0], sizes: [1], strides: [1] : memref<i64> to memref<1xi64>
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    %v = memref.load %ptr[%c0] : memref<1xi64>
    %w = arith.addi %v, %one : i64
    memref.store %w, %ptr[%c0] : memref<1xi64>
  }
  return
}

// -----

// A task that splits its caller's array uses it in place: no acquire.
// CHECK-LABEL: func.func @argument_in_place
// CHECK-NOT: arts.db_acquire
// CHECK: arts.edt <task> <intranode> route(%{{.*}}) {
// CHECK-NEXT: memref.store %{{.*}}, %arg0[%{{.*}}] : memref<?xf32>
// ARG: [create-dbs] {{.*}}create.mlir:[[@LINE+5]]:3: memref argument #0 stays shared memory in this task (no allocation to make a datablock of; only epochs order its uses)
func.func @argument_in_place(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %f = arith.constant 1.0 : f32
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    memref.store %f, %a[%c0] : memref<?xf32>
  }
  return
}

// -----

// A global that a depend item names and only main uses: main gets a copy at its start (the
// global's value copied in, element by element), a datablock the tasks order on.
// CHECK-LABEL: func.func @main
// CHECK: %[[G:.*]] = memref.get_global @depended : memref<8xf64>
// CHECK: %[[DB:.*]] = arts.db_alloc
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[V:.*]] = memref.load %[[G]][%[[I]]] : memref<8xf64>
// CHECK: memref.store %[[V]], %{{.*}}[%[[I]]] : memref<8xf64>
// CHECK: arts.db_acquire <inout>
// CHECK: arts.edt <task>
// CHECK-NOT: memref.get_global
// GLOBAL: [create-dbs] {{.*}}create.mlir:[[@LINE+1]]:1: global @depended named by a depend item and used only in main -> a copy allocated at main's start (a datablock)
memref.global "private" @depended : memref<8xf64> = dense<1.0>
func.func @main() -> i32 {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %f = arith.constant 2.0 : f64
  %g = memref.get_global @depended : memref<8xf64>
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    arts.depend <inout> %g : memref<8xf64>
    memref.store %f, %g[%c0] : memref<8xf64>
  }
  return %r : i32
}

// -----

// Tasks without a depend item on the array they write: on one node they share its payload
// (`concurrent`: only epochs order them against their siblings); the task with a depend
// item on it stays exclusive, and a task that only reads it reads.
// CHECK-LABEL: func.func @unordered_writers
// CHECK: arts.db_acquire <concurrent>
// CHECK: arts.edt <task>
// CHECK: arts.db_acquire <inout>
// CHECK: arts.edt <task>
// CHECK: arts.depend <inout>
// CHECK: arts.db_acquire <in>
// CHECK: arts.edt <task>
// UNORD: [create-dbs] {{.*}}create.mlir:[[@LINE+8]]:5: task without a depend item on it: acquire mode=concurrent (only epochs order it against its siblings)
func.func @unordered_writers(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %f = arith.constant 1.0 : f64
  %a = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    arts.edt <task> <intranode> route(%r) attributes {no_verify} {
      memref.store %f, %a[%i] : memref<?xf64>
    }
  }
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    arts.depend <inout> %a : memref<?xf64>
    memref.store %f, %a[%c0] : memref<?xf64>
  }
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    %v = memref.load %a[%c0] : memref<?xf64>
  }
  memref.dealloc %a : memref<?xf64>
  return
}

// -----

// A task that asked its thread number (openmp-to-arts marks it: the number is 0 in a task
// outside a team's region) may index per-thread storage with it: its writes stay exclusive,
// and it takes turns with the other such tasks (one token of the function, inout).
// CHECK-LABEL: func.func @asks_thread
// CHECK: %[[TG:.*]], %[[TP:.*]] = arts.db_alloc <inout> <write> <coarse> {{.*}} elementSizes[] {arts.order_only} : memref<?xi64>, memref<?xmemref<i8>>
// CHECK: arts.db_acquire <out>
// CHECK: arts.db_acquire <inout> (%[[TG]], %[[TP]] : {{.*}}) {arts.order_only}
// CHECK: arts.edt <task>
// CHECK: arts.db_free(%[[TG]], %[[TP]]
func.func @asks_thread(%n: index) {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %f = arith.constant 1.0 : f64
  %a = memref.alloc(%n) : memref<?xf64>
  arts.edt <task> <intranode> route(%r) attributes {arts.asks_thread, no_verify} {
    memref.store %f, %a[%c0] : memref<?xf64>
  }
  memref.dealloc %a : memref<?xf64>
  return
}

// -----

// Depend items that name single elements (the front end's one-element views): a token per
// element beside the array's datablock, each item's task acquiring its token with the item's
// mode (order only) and the array itself concurrent when it writes. Two items of one task on one token
// would make it wait for itself: the second read takes a spare entry (the table's count plus
// its position) when its token equals the first's.
// CHECK-LABEL: func.func @element_items
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc <inout> <write> <coarse>
// CHECK: %[[LEN:.*]] = arith.minui %{{.*}}, %c65536
// CHECK: %[[TOK:.*]] = arith.maxui %{{.*}}, %[[LEN]]
// CHECK: %[[COUNT:.*]] = arith.addi %[[TOK]], %c2
// CHECK: %[[TG:.*]], %[[TP:.*]] = arts.db_alloc <inout> <write> <fine_grained> route(%{{.*}}) sizes[%[[COUNT]]] elementSizes[] : memref<?xi64>, memref<?xmemref<i8>>
// CHECK: arts.db_acquire <in> (%[[G]], %[[P]]
// CHECK: %[[T0:.*]] = arith.remui %{{.*}}, %[[TOK]]
// CHECK: %[[T1:.*]] = arith.remui %{{.*}}, %[[TOK]]
// CHECK: arts.db_acquire <in> (%[[TG]], %[[TP]] : {{.*}}) offsets[%[[T0]]] sizes[%{{.*}}] {arts.order_only}
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[T0]], %[[T1]]
// CHECK: %[[SPARE:.*]] = arith.addi %[[TOK]], %c1
// CHECK: %[[E1:.*]] = arith.select %[[SAME]], %[[SPARE]], %[[T1]]
// CHECK: arts.db_acquire <in> (%[[TG]], %[[TP]] : {{.*}}) offsets[%[[E1]]] sizes[%{{.*}}] {arts.order_only}
// CHECK: arts.edt <task>
// CHECK-NOT: arts.depend {{.*}}memref<?xf64>
// CHECK: arts.db_acquire <concurrent> (%[[G]], %[[P]]
// CHECK: arts.db_acquire <inout> (%[[TG]], %[[TP]] : {{.*}}) offsets[%{{.*}}] sizes[%{{.*}}] {arts.order_only}
// CHECK: arts.db_free(%[[G]], %[[P]]
// CHECK-NEXT: arts.db_free(%[[TG]], %[[TP]]
func.func @element_items(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %f = arith.constant 1.0 : f64
  %a = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c1 to %n step %c1 {
    %prev = arith.subi %i, %c1 : index
    %left = memref.subview %a[%prev] [1] [1] : memref<?xf64> to memref<1xf64, strided<[1], offset: ?>>
    %here = memref.subview %a[%i] [1] [1] : memref<?xf64> to memref<1xf64, strided<[1], offset: ?>>
    arts.edt <task> <intranode> route(%r) attributes {no_verify} {
      arts.depend <in> %left : memref<1xf64, strided<[1], offset: ?>>
      arts.depend <in> %here : memref<1xf64, strided<[1], offset: ?>>
      %x = memref.load %a[%prev] : memref<?xf64>
      %y = memref.load %a[%i] : memref<?xf64>
    }
    arts.edt <task> <intranode> route(%r) attributes {no_verify} {
      arts.depend <out> %here : memref<1xf64, strided<[1], offset: ?>>
      memref.store %f, %a[%i] : memref<?xf64>
    }
  }
  memref.dealloc %a : memref<?xf64>
  return
}

//--- nodes.mlir

// On several nodes a writer without a depend item stays exclusive: a writer elsewhere works
// on a copy merged back byte by byte, and two writers of one element would not see each other.
// NODES: arts.db_acquire <out>
// NODES: arts.edt <task>
module attributes {arts.nodes = 2 : i64} {
func.func @unordered_writer(%n: index) {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %f = arith.constant 1.0 : f64
  %a = memref.alloc(%n) : memref<?xf64>
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    memref.store %f, %a[%c0] : memref<?xf64>
  }
  memref.dealloc %a : memref<?xf64>
  return
}
}

//--- invalid.mlir

// A global that a depend item names and another function uses too stays a global, which is
// not a datablock: nothing would order the task.
memref.global "private" @shared_global : memref<8xf64>
func.func @reader() -> f64 {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @shared_global : memref<8xf64>
  %v = memref.load %g[%c0] : memref<8xf64>
  return %v : f64
}
func.func @writer() {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %g = memref.get_global @shared_global : memref<8xf64>
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    // expected-error @+1 {{a depend item on a global variable is not supported: globals are not datablocks}}
    arts.depend <out> %g : memref<8xf64>
  }
  return
}

// -----

// A memref argument has no allocation to turn into a datablock.
func.func @argument(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  // expected-error @+1 {{task uses memref argument #0 of its function; datablocks need the allocation (inline the caller)}}
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) {
    ^bb0(%i: index):
      %v = memref.load %a[%i] : memref<?xf32>
    }
  }
  return
}

// -----

// A task (not a parallel task) may use an array its function was given, in place; a
// depend item on it has no datablock to order on.
func.func @argument_depend(%a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %f = arith.constant 1.0 : f32
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    memref.store %f, %a[%c0] : memref<?xf32>
  }
  // expected-error @+1 {{task uses memref argument #0 of its function; datablocks need the allocation (inline the caller), and a depend item on it needs a datablock to order on}}
  arts.edt <task> <intranode> route(%r) attributes {no_verify} {
    arts.depend <out> %a : memref<?xf32>
  }
  return
}

// -----

// A view of unknown origin is rejected rather than guessed.
func.func @subview(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %a = memref.alloc() : memref<16xf32>
  %v = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  // expected-error @+1 {{cannot make a datablock of a memref defined by 'memref.subview'}}
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    %x = memref.load %v[%c0] : memref<8xf32, strided<[1]>>
  }
  return
}
