// arts-concurrency: workers and node placement come from its options (threads per node, nodes);
// loops stay arts.for. The pass reads no file and no environment: a bare pipeline gives the
// same IR in any shell and directory (the drivers resolve arts.cfg and env into the options).
// RUN: split-file %s %t
// RUN: carts-opt %t/input.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=2 nodes=2})' | FileCheck %s --check-prefix=TWO
// RUN: carts-opt %t/input.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=3 nodes=1})' | FileCheck %s --check-prefix=OPTS
// RUN: carts-opt %t/input.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=2 nodes=2})' --debug-only=concurrency 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/input.mlir --pass-pipeline='builtin.module(arts-concurrency)' > %t/plain.mlir
// RUN: cd %t && env threads=100000 nodeCount=7 nodeMinOps=0 carts-opt %t/input.mlir --pass-pipeline='builtin.module(arts-concurrency)' > %t/env.mlir
// RUN: cd %t && env artsConfig=%t/two-nodes.cfg carts-opt %t/input.mlir --pass-pipeline='builtin.module(arts-concurrency)' > %t/cfg.mlir
// RUN: diff %t/plain.mlir %t/env.mlir
// RUN: diff %t/plain.mlir %t/cfg.mlir
// RUN: FileCheck %s --check-prefix=PLAIN < %t/plain.mlir

//--- two-nodes.cfg
[ARTS]
# two nodes of two workers
threads = 2
nodeCount=2

//--- arts.cfg
[ARTS]
threads = 5
nodeCount = 3

//--- input.mlir
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  arts.edt <parallel> <intranode> route(%r) {
    arts.for (%c0) to (%n) step (%c1) {
    ^bb0(%i: index):
    }
    arts.barrier
  }
  return
}

// Every worker of every node, internode; the module records the machine.
// TWO: module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64}
// TWO: arts.edt <parallel> <internode> route(%{{.*}}) attributes {workers = 4 : i64}
// TWO: arts.for
// Pass options override the file.
// OPTS: module attributes {arts.nodes = 1 : i64, arts.threads = 3 : i64}
// OPTS: arts.edt <parallel> <intranode> route(%{{.*}}) attributes {workers = 3 : i64}
// DEBUG: [concurrency] {{.*}}input.mlir:5:3: parallel task workers=4 threads=2 nodes=2 internode (machine: options)
// Without options: the online cores on one node, whatever the environment or arts.cfg say.
// PLAIN: module attributes {arts.nodes = 1 : i64, arts.threads = [[T:[0-9]+]] : i64}
// PLAIN: arts.edt <parallel> <intranode> route(%{{.*}}) attributes {workers = [[T]] : i64}
// The placement for-lowering will apply is reported on its channel while the loop is arts.for.
// RUN: carts-opt %t/input.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=2 nodes=2})' --debug-only=for-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=PLAN
// PLAN: [for-lowering] {{.*}}input.mlir:6:5: arts.for planned: workers=4 (2 per node x 2 nodes) route(b) = floor(b / ceil(chunks / 4)) % 2 distributed=candidate

// A task that loads a pointer out of a datablock and dereferences it stays on node 0: the
// address means nothing in another node's process. So does one using a mutable global
// (not a datablock: every node would write its own copy); a constant global is fine.
// RUN: carts-opt %t/global.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=2 nodes=2})' --debug-only=concurrency 2>&1 | FileCheck %s --check-prefix=GLOBAL
// GLOBAL: [concurrency] {{.*}}global.mlir:6:3: {{.*}} intranode (machine: options) on node 0: it uses the global variable @mark
// GLOBAL: [concurrency] {{.*}}global.mlir:12:3: {{.*}} internode (machine: options)
// GLOBAL-NOT: on node 0
// The same global captured from outside the task (CSE hoists get_global; a helper given the
// array as a pointer, once inlined, leaves it outside too), through a cast: node 0 as well.
// RUN: carts-opt %t/captured.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=2 nodes=2})' --debug-only=concurrency 2>&1 | FileCheck %s --check-prefix=CAPTURED
// CAPTURED: [concurrency] {{.*}}captured.mlir:6:3: {{.*}} intranode (machine: options) on node 0: it uses the global variable @mark
// CAPTURED: arts.edt <parallel> <intranode>
// RUN: carts-opt %t/pointer.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=2 nodes=2})' --debug-only=concurrency,for-lowering 2>&1 | FileCheck %s --check-prefix=PTR
// PTR: [concurrency] {{.*}}pointer.mlir:7:3: parallel task workers=4 threads=2 nodes=2 intranode (machine: options) on node 0: it dereferences a pointer held in a datablock
// PTR: [for-lowering] {{.*}}pointer.mlir:10:5: arts.for planned: {{.*}} % 1 distributed=no (node 0's memory: node 0)
// PTR: arts.edt <parallel> <intranode> route(%{{.*}}) {{.*}}attributes {workers = 4 : i64}
// A task that takes an OpenMP lock stays on node 0: the lock is a word of node 0's memory.
// RUN: carts-opt %t/lock.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=2 nodes=2})' --debug-only=concurrency 2>&1 | FileCheck %s --check-prefix=LOCK
// LOCK: [concurrency] {{.*}}lock.mlir:5:3: {{.*}} intranode (machine: options) on node 0: it uses an OpenMP lock (@omp_set_lock), a word of node 0's memory
// LOCK: arts.edt <parallel> <intranode>

// So does a task that calls a function of the module that takes one or uses a global (a
// recursive helper, which the inliner leaves as a call), through the functions it calls.
// RUN: carts-opt %t/helper.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=2 nodes=2})' --debug-only=concurrency 2>&1 | FileCheck %s --check-prefix=HELPER
// HELPER: [concurrency] {{.*}}helper.mlir:13:3: {{.*}} intranode (machine: options) on node 0: it uses an OpenMP lock (@omp_set_nest_lock), a word of node 0's memory in @inner in @outer
// HELPER: [concurrency] {{.*}}helper.mlir:17:3: {{.*}} intranode (machine: options) on node 0: it uses the global variable @depth in @count
// HELPER-NOT: on node 0

// RUN: carts-opt %t/wide.mlir --pass-pipeline='builtin.module(arts-concurrency{threads=1 nodes=2})' --debug-only=concurrency 2>&1 | FileCheck %s --check-prefix=WIDE
// A num_threads team larger than every node's workers together keeps its size, on node 0.
// WIDE: [concurrency] {{.*}}wide.mlir:3:3: parallel task workers=3 (num_threads) {{.*}} intranode (machine: options) on node 0: num_threads(3) is more than the 2 workers of all nodes
// WIDE: arts.edt <parallel> <intranode> route(%{{.*}}) attributes {workers = 3 : i64}

//--- wide.mlir
func.func @wide() {
  %r = arith.constant 0 : i32
  arts.edt <parallel> <intranode> route(%r) attributes {workers = 3 : i64} {
    arts.barrier
  }
  return
}

//--- helper.mlir
func.func private @omp_set_nest_lock(!llvm.ptr)
memref.global @depth : memref<i32> = dense<0>
func.func @inner(%lock: !llvm.ptr) {
  func.call @omp_set_nest_lock(%lock) : (!llvm.ptr) -> ()
  return
}
func.func @outer(%lock: !llvm.ptr) {
  func.call @inner(%lock) : (!llvm.ptr) -> ()
  return
}
func.func @helpers(%lock: !llvm.ptr) {
  %r = arith.constant 0 : i32
  arts.edt <parallel> <intranode> route(%r) {
    func.call @outer(%lock) : (!llvm.ptr) -> ()
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) {
    func.call @count() : () -> ()
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) {
    func.call @pure() : () -> ()
    arts.barrier
  }
  return
}
func.func @count() {
  %g = memref.get_global @depth : memref<i32>
  %c1 = arith.constant 1 : i32
  memref.store %c1, %g[] : memref<i32>
  func.call @count() : () -> ()
  return
}
func.func @pure() {
  return
}

//--- lock.mlir
func.func private @omp_set_lock(!llvm.ptr)
func.func private @omp_unset_lock(!llvm.ptr)
func.func @locked(%lock: !llvm.ptr) {
  %r = arith.constant 0 : i32
  arts.edt <parallel> <intranode> route(%r) {
    func.call @omp_set_lock(%lock) : (!llvm.ptr) -> ()
    func.call @omp_unset_lock(%lock) : (!llvm.ptr) -> ()
    arts.barrier
  }
  return
}

//--- pointer.mlir
func.func @g(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %guids, %ptrs = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[] : memref<?xi64>, memref<?xmemref<memref<?xf32>>>
  %g, %table = arts.db_acquire <in> (%guids, %ptrs : memref<?xi64>, memref<?xmemref<memref<?xf32>>>) : memref<?xi64>, memref<?xmemref<memref<?xf32>>>
  arts.edt <parallel> <intranode> route(%r) (%table : memref<?xmemref<memref<?xf32>>>) {
  ^bb0(%t: memref<?xmemref<memref<?xf32>>>):
    %p = arts.db_ref %t[%c0] : memref<?xmemref<memref<?xf32>>> -> memref<memref<?xf32>>
    arts.for (%c0) to (%n) step (%c1) {
    ^bb0(%i: index):
      %q = memref.load %p[] : memref<memref<?xf32>>
      %v = memref.load %q[%i] : memref<?xf32>
    }
    arts.barrier
  }
  return
}

//--- global.mlir
memref.global "private" @mark : memref<2xi32> = dense<0>
memref.global "private" constant @table : memref<2xi32> = dense<[1, 2]>
func.func @h(%n: index) {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  arts.edt <parallel> <intranode> route(%r) {
    %m = memref.get_global @mark : memref<2xi32>
    %v = arith.constant 1 : i32
    memref.store %v, %m[%c0] : memref<2xi32>
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) {
    %t = memref.get_global @table : memref<2xi32>
    %v = memref.load %t[%c0] : memref<2xi32>
    arts.barrier
  }
  return
}

//--- captured.mlir
memref.global "private" @mark : memref<2xi32> = dense<0>
func.func @k(%n: index) {
  %c0 = arith.constant 0 : index
  %r = arith.constant 0 : i32
  %m = memref.get_global @mark : memref<2xi32>
  arts.edt <parallel> <intranode> route(%r) {
    %d = memref.cast %m : memref<2xi32> to memref<?xi32>
    %v = arith.constant 1 : i32
    memref.store %v, %d[%c0] : memref<?xi32>
    arts.barrier
  }
  return
}
