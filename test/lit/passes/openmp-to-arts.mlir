// arts-openmp-to-arts: each OpenMP construct becomes its ARTS counterpart, unsupported ones
// fail at their location before anything changes. The convert part is checked on its output
// and, as one module (so that locations are the file's lines), on its debug channel; the
// invalid part with --verify-diagnostics.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-openmp-to-arts)' | FileCheck %s
// RUN: carts-opt %t/convert.mlir --pass-pipeline='builtin.module(arts-openmp-to-arts)' --debug-only=openmp-to-arts 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-openmp-to-arts)' --verify-diagnostics

//--- convert.mlir

// Critical sections are converted first (an update they become may become a reduction),
// so their decisions come first on the debug channel.
// A critical section whose body is one `x = x op e` becomes that atomic update, e computed
// before it (and here, the update being the loop's only use of x, then a reduction); any
// other body becomes arts.critical with the section's name.
// CHECK-NOT: omp.critical.declare
// CHECK-LABEL: func.func @criticals
// CHECK-SAME: (%{{.*}}: index, %[[A:.*]]: memref<?xi64>, %[[S:.*]]: memref<i64>, %[[C:.*]]: memref<i64>, %[[D:.*]]: memref<i64>)
// CHECK: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<static>) reduction([#arts.reduction<add>] %[[S]] : memref<i64>) {
// CHECK: %[[E:.*]] = memref.load %[[A]][%{{.*}}] : memref<?xi64>
// CHECK-NEXT: %[[L:.*]] = memref.load %[[S]][] : memref<i64>
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[L]], %[[E]] : i64
// CHECK-NEXT: memref.store %[[N]], %[[S]][] : memref<i64>
// CHECK: arts.critical "critical_pair" {
// CHECK: memref.store %{{.*}}, %[[C]][] : memref<i64>
// CHECK: memref.store %{{.*}}, %[[D]][] : memref<i64>
// CHECK-NOT: omp.critical
omp.critical.declare @critical_pair
func.func @criticals(%n: index, %a: memref<?xi64>, %s: memref<i64>, %c: memref<i64>, %d: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:9: omp.critical -> atomic update of memref<i64> (its body is one 'x = x op e')
        omp.critical {
          %e = memref.load %a[%i] : memref<?xi64>
          %l = memref.load %s[] : memref<i64>
          %r = arith.addi %l, %e : i64
          memref.store %r, %s[] : memref<i64>
          omp.terminator
        }
        // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:9: omp.critical -> arts.critical "critical_pair" (the runtime's lock of its node)
        omp.critical(@critical_pair) {
          %x = memref.load %c[] : memref<i64>
          %y = arith.addi %x, %one : i64
          memref.store %y, %c[] : memref<i64>
          %z = memref.load %d[] : memref<i64>
          %w = arith.addi %z, %x : i64
          memref.store %w, %d[] : memref<i64>
          omp.terminator
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// parallel if(c): the region when c holds, else a copy of it run by a team of one. Split
// right after the critical sections, so its decision comes next on the debug channel.
// CHECK-LABEL: func.func @parallel_if
// CHECK: scf.if %{{.*}} {
// CHECK: arts.edt <parallel> <intranode> route(%{{.*}}) attributes {no_verify} {
// CHECK: } else {
// CHECK: arts.edt <parallel> <intranode> route(%{{.*}}) attributes {no_verify, workers = 1 : i64} {
// CHECK-NOT: omp.parallel
func.func @parallel_if(%c: i1, %x: memref<i32>) {
  %v = arith.constant 7 : i32
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:3: if clause on omp.parallel -> scf.if: the region, else a copy run by a team of one
  omp.parallel if(%c) {
    memref.store %v, %x[] : memref<i32>
    omp.terminator
  }
  return
}

// -----

// A parallel region that is one sequential loop holding work-sharing loops: the loop goes
// outside, and each iteration gets its own parallel region (values computed from outside
// go before it).
// CHECK-LABEL: func.func @time_loop
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: arts.edt <parallel>
// CHECK: arts.for
// CHECK: arts.barrier
// CHECK: arts.for
// CHECK: arts.barrier
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @time_loop(%n: index, %a: memref<?xi64>, %b: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.parallel whose body is one sequential loop holding its barriers -> the loop outside, a parallel region per iteration
  omp.parallel {
    %steps = arith.constant 10 : index
    scf.for %t = %c0 to %steps step %c1 {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
          %v = memref.load %a[%i] : memref<?xi64>
          memref.store %v, %b[%i] : memref<?xi64>
          omp.yield
        }
      }
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
          %v = memref.load %b[%i] : memref<?xi64>
          memref.store %v, %a[%i] : memref<?xi64>
          omp.yield
        }
      }
    }
    omp.terminator
  }
  return
}

// -----

// An ordered loop is split: the work-sharing loop runs the part before the region and
// keeps, per iteration, what the rest uses (a loaded value, a per-thread scalar); one
// task then runs the region and what follows it for every iteration in order. Values
// computed from the IV alone are computed again.
// CHECK-LABEL: func.func @ordered
// CHECK-SAME: (%[[N:.*]]: index, %[[A:.*]]: memref<?xi64>, %[[H:.*]]: memref<i64>)
// CHECK: %[[TRIPS:.*]] = arith.ceildivsi
// CHECK: %[[VBUF:.*]] = memref.alloc(%[[TRIPS]]) : memref<?xi64>
// CHECK: %[[TBUF:.*]] = memref.alloc(%[[TRIPS]]) : memref<?xi64>
// CHECK: arts.edt <parallel>
// CHECK: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<static>) {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK: %[[SLOT:.*]] = arith.divsi
// CHECK: memref.store %{{.*}}, %[[TBUF]][%[[SLOT]]] : memref<?xi64>
// CHECK: %[[V:.*]] = memref.load %[[A]][%[[I]]] : memref<?xi64>
// CHECK: memref.store %[[V]], %[[VBUF]][%[[SLOT]]] : memref<?xi64>
// CHECK: arts.barrier
// CHECK: arts.edt <single>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK: %[[SLOT2:.*]] = arith.divsi
// CHECK: %[[V2:.*]] = memref.load %[[VBUF]][%[[SLOT2]]] : memref<?xi64>
// CHECK: %[[K:.*]] = arith.index_cast %[[J]] : index to i64
// CHECK: %[[T2:.*]] = memref.load %[[TBUF]][%[[SLOT2]]] : memref<?xi64>
// CHECK: memref.store %{{.*}}, %[[H]][] : memref<i64>
// CHECK: arts.barrier
// CHECK: memref.dealloc %[[VBUF]]
// CHECK: memref.dealloc %[[TBUF]]
// CHECK-NOT: omp.ordered
func.func @ordered(%n: index, %a: memref<?xi64>, %h: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    %t = memref.alloca() : memref<i64>
    omp.wsloop ordered(0) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %k = arith.index_cast %i : index to i64
        memref.store %k, %t[] : memref<i64>
        %v = memref.load %a[%i] : memref<?xi64>
        // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:9: omp.ordered.region -> the loop split: 1 value(s) and 1 per-thread scalar(s) kept per iteration; the ordered part and what follows it run in order in one task after the loop
        omp.ordered.region {
          %x = memref.load %h[] : memref<i64>
          %y = arith.addi %x, %v : i64
          %z = arith.addi %y, %k : i64
          %w = memref.load %t[] : memref<i64>
          %u = arith.addi %z, %w : i64
          memref.store %u, %h[] : memref<i64>
          omp.terminator
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// An ordered region in a collapsed nest: the slot of an iteration is its number in the
// nest's order (the outer number times the inner trip count, plus the inner number), and
// the ordered part runs in a nest of the same loops.
// CHECK-LABEL: func.func @ordered_collapsed
// CHECK: %[[OUTER:.*]] = arith.ceildivsi
// CHECK: %[[INNER:.*]] = arith.ceildivsi %{{.*}}, %[[C2:.*]] : index
// CHECK: arith.muli %[[OUTER]], %[[INNER]] : index
// CHECK: arts.edt <parallel>
// CHECK: arts.for
// CHECK: scf.for
// CHECK: } {arts.collapsed}
// CHECK: arts.barrier
// CHECK: arts.edt <single>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %[[C2]] {
// CHECK: %[[P:.*]] = arith.muli %[[I]], %[[J]] : index
// CHECK: %[[K:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK: %[[X:.*]] = memref.load
// CHECK: arith.muli %[[X]], %[[K]] : i64
// CHECK: memref.store
// CHECK-NOT: omp.ordered
func.func @ordered_collapsed(%n: index, %m: index, %h: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  omp.parallel {
    omp.wsloop ordered(0) {
      omp.loop_nest (%i, %j) : index = (%c0, %c1) to (%n, %m) step (%c1, %c2) {
        %p = arith.muli %i, %j : index
        %k = arith.index_cast %p : index to i64
        omp.ordered.region {
          %x = memref.load %h[] : memref<i64>
          %y = arith.muli %x, %k : i64
          memref.store %y, %h[] : memref<i64>
          omp.terminator
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A value computed after the ordered region from what that part itself loads (`a[i] * 2`)
// moves with it: no buffer slot, nothing stored before it is defined.
// CHECK-LABEL: func.func @ordered_then_update
// CHECK-NOT: memref.alloc(
// CHECK: arts.for
// CHECK: arts.edt <single>
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<i64>
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[J]]] : memref<?xf64>
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %{{.*}} : f64
// CHECK: memref.store %[[Y]], %{{.*}}[%[[J]]] : memref<?xf64>
func.func @ordered_then_update(%n: index, %a: memref<?xf64>, %h: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  omp.parallel {
    omp.wsloop ordered(0) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %k = arith.index_cast %i : index to i64
        omp.ordered.region {
          memref.store %k, %h[] : memref<i64>
          omp.terminator
        }
        %x = memref.load %a[%i] : memref<?xf64>
        %y = arith.mulf %x, %two : f64
        memref.store %y, %a[%i] : memref<?xf64>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A reduction into a global scalar reduces into a local copy made before the team and
// stored back after it (a global is no datablock).
// CHECK-LABEL: func.func @global_reduction
// CHECK: memref.get_global @total : memref<i64>
// CHECK-NEXT: %[[G:.*]] = memref.get_global @total : memref<i64>
// CHECK-NEXT: %[[COPY:.*]] = memref.alloca() : memref<i64>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[G]][] : memref<i64>
// CHECK-NEXT: memref.store %[[V]], %[[COPY]][] : memref<i64>
// CHECK: arts.edt <parallel>
// CHECK: arts.for {{.*}} reduction([#arts.reduction<add>] %[[COPY]] : memref<i64>)
// CHECK: arts.barrier
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = memref.load %[[COPY]][] : memref<i64>
// CHECK-NEXT: memref.store %[[R]], %[[G]][] : memref<i64>
omp.declare_reduction @add_i64 : i64 init {
^bb0(%arg: i64):
  %z = arith.constant 0 : i64
  omp.yield(%z : i64)
} combiner {
^bb0(%a: i64, %b: i64):
  %s = arith.addi %a, %b : i64
  omp.yield(%s : i64)
}
memref.global "private" @total : memref<i64> = dense<5>
func.func @global_reduction(%n: index, %a: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.get_global @total : memref<i64>
  omp.parallel {
    omp.wsloop reduction(@add_i64 %t -> %acc : memref<i64>) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %x = memref.load %a[%i] : memref<?xi64>
        %old = memref.load %acc[] : memref<i64>
        %new = arith.addi %old, %x : i64
        memref.store %new, %acc[] : memref<i64>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// An ordered region reading an array of the function around the team (shared memory):
// nothing to keep per iteration, the part after the region reads it after the loop.
// CHECK-LABEL: func.func @ordered_shared_array
// CHECK-NOT: memref.alloc(
// CHECK: arts.for
// CHECK: memref.store %{{.*}}, %[[A:.*]][%{{.*}}] : memref<8xi64>
// CHECK: arts.edt <single>
// CHECK: scf.for %[[J:.*]] =
// CHECK: memref.load %[[A]][%[[J]]] : memref<8xi64>
func.func @ordered_shared_array(%h: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloca() : memref<8xi64>
  omp.parallel {
    omp.wsloop ordered(0) {
      omp.loop_nest (%i) : index = (%c0) to (%c8) step (%c1) {
        %k = arith.index_cast %i : index to i64
        memref.store %k, %a[%i] : memref<8xi64>
        omp.ordered.region {
          %x = memref.load %a[%i] : memref<8xi64>
          memref.store %x, %h[] : memref<i64>
          omp.terminator
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// omp.sections in a team: each section a single task (no barrier of its own), then the
// construct's barrier.
// CHECK-LABEL: func.func @sections
// CHECK: arts.edt <parallel>
// CHECK: arts.edt <single> <intranode>
// CHECK: memref.store %{{.*}}, %[[X:.*]][] : memref<i32>
// CHECK-NOT: arts.barrier
// CHECK: arts.edt <single> <intranode>
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<i32>
// CHECK: }
// CHECK-NEXT: arts.barrier
// CHECK-NOT: omp.section
func.func @sections(%x: memref<i32>, %y: memref<i32>) {
  %v = arith.constant 7 : i32
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.sections -> 2 arts.edt <single>, one per section, barrier=1
    omp.sections {
      omp.section {
        memref.store %v, %x[] : memref<i32>
        omp.terminator
      }
      omp.section {
        memref.store %v, %y[] : memref<i32>
        omp.terminator
      }
      omp.terminator
    }
    omp.terminator
  }
  return
}

// -----

// A parallel region becomes a parallel task; a constant num_threads becomes workers.
// CHECK-LABEL: func.func @parallel_region
// CHECK: %[[ROUTE:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arts.edt <parallel> <intranode> route(%[[ROUTE]]) attributes {no_verify, workers = 4 : i64} {
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: omp.
func.func @parallel_region(%m: memref<f32>) {
  %c4 = arith.constant 4 : i32
  %f = arith.constant 1.0 : f32
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.parallel -> arts.edt <parallel> workers=4 privates=0
  omp.parallel num_threads(%c4 : i32) {
    memref.store %f, %m[] : memref<f32>
    omp.terminator
  }
  return
}

// -----

// A num_threads known only at run time leaves workers to the concurrency stage.
// CHECK-LABEL: func.func @parallel_dynamic_threads
// CHECK: arts.edt <parallel> <intranode> route(%{{.*}}) attributes {no_verify} {
func.func @parallel_dynamic_threads(%n: i32, %m: memref<f32>) {
  %f = arith.constant 1.0 : f32
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:3: omp.parallel -> arts.edt <parallel> workers=unset (num_threads not constant)
  omp.parallel num_threads(%n : i32) {
    memref.store %f, %m[] : memref<f32>
    omp.terminator
  }
  return
}

// -----

// An i32 loop: bounds cast to index, the induction variable cast back, a barrier after it.
// CHECK-LABEL: func.func @wsloop_i32
// CHECK-SAME: (%[[N:.*]]: i32, %[[A:.*]]: memref<?xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: arts.edt <parallel>
// CHECK-NEXT: %[[LB:.*]] = arith.index_cast %[[C0]] : i32 to index
// CHECK-NEXT: %[[UB:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK-NEXT: %[[STEP:.*]] = arith.index_cast %[[C1]] : i32 to index
// CHECK-NEXT: arts.for (%[[LB]]) to (%[[UB]]) step (%[[STEP]]) schedule(<static>) {
// CHECK-NEXT: ^bb0(%[[IV:.*]]: index):
// CHECK-NEXT: %[[I:.*]] = arith.index_cast %[[IV]] : index to i32
// CHECK-NEXT: %[[II:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NEXT: memref.store %{{.*}}, %[[A]][%[[II]]]
// CHECK-NEXT: }
// CHECK-NEXT: arts.barrier
// CHECK-NEXT: }
func.func @wsloop_i32(%n: i32, %a: memref<?xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f = arith.constant 1.0 : f32
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.wsloop -> arts.for schedule=static nowait=0 reductions=0
    omp.wsloop schedule(static) {
      omp.loop_nest (%i) : i32 = (%c0) to (%n) step (%c1) {
        %ii = arith.index_cast %i : i32 to index
        memref.store %f, %a[%ii] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// An index loop with nowait and no schedule clause: static by default, no barrier.
// CHECK-LABEL: func.func @wsloop_index_nowait
// CHECK: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<static>) {
// CHECK-NEXT: ^bb0(%[[IV:.*]]: index):
// CHECK-NEXT: memref.store %{{.*}}[%[[IV]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @wsloop_index_nowait(%n: index, %a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.wsloop -> arts.for schedule=static nowait=1 reductions=0
    omp.wsloop nowait {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %f, %a[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// An inclusive upper bound gets one added; the chunk of a dynamic schedule is cast to index.
// CHECK-LABEL: func.func @wsloop_inclusive_chunk
// CHECK-SAME: (%[[N:.*]]: i64,
// CHECK: %[[UB:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[UB1:.*]] = arith.addi %[[UB]], %[[ONE]] : index
// CHECK: %[[CHUNK:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT: arts.for (%{{.*}}) to (%[[UB1]]) step (%{{.*}}) schedule(<dynamic>, %[[CHUNK]]) {
// CHECK: arith.index_cast %{{.*}} : index to i64
// CHECK: arts.barrier
func.func @wsloop_inclusive_chunk(%n: i64, %a: memref<?xf32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %chunk = arith.constant 16 : i32
  %f = arith.constant 1.0 : f32
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.wsloop -> arts.for schedule=dynamic chunk nowait=0
    omp.wsloop schedule(dynamic = %chunk : i32) {
      omp.loop_nest (%i) : i64 = (%c0) to (%n) inclusive step (%c1) {
        %ii = arith.index_cast %i : i64 to index
        memref.store %f, %a[%ii] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// collapse(2): the outer loop becomes the arts.for, the inner one an scf.for marked
// arts.collapsed inside each iteration (for-lowering may share both loops' iterations).
// CHECK-LABEL: func.func @wsloop_collapse
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index, %[[A:.*]]: memref<?x?xf32>)
// CHECK: arts.for (%{{.*}}) to (%[[N]]) step (%{{.*}}) schedule(<guided>) {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %[[M]] step %{{.*}} {
// CHECK-NEXT: memref.store %{{.*}}, %[[A]][%[[I]], %[[J]]]
// CHECK-NEXT: } {arts.collapsed}
// CHECK-NEXT: }
// CHECK-NEXT: arts.barrier
func.func @wsloop_collapse(%n: index, %m: index, %a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop schedule(guided) {
      // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:7: omp.loop_nest collapse(2): outermost loop -> arts.for, 1 inner loop(s) -> scf.for {arts.collapsed}
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%n, %m) step (%c1, %c1) collapse(2) {
        memref.store %f, %a[%i, %j] : memref<?x?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// private on a collapsed nest: one copy per innermost iteration, so the alloca_scope sits
// inside the arts.collapsed loop (for-lowering clones that loop's body per iteration).
// CHECK-LABEL: func.func @wsloop_collapse_private
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index, %{{.*}}: memref<f32>, %[[A:.*]]: memref<?x?xf32>)
// CHECK: arts.for (%{{.*}}) to (%[[N]]) step (%{{.*}}) schedule(<static>) {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %[[M]] step %{{.*}} {
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: %[[PTMP:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[A]][%[[I]], %[[J]]]
// CHECK-NEXT: memref.store %[[V]], %[[PTMP]][]
// CHECK-NEXT: }
// CHECK-NEXT: } {arts.collapsed}
// CHECK-NEXT: }
// CHECK-NEXT: arts.barrier
omp.private {type = private} @collapse_tmp_private : memref<f32>
func.func @wsloop_collapse_private(%n: index, %m: index, %tmp: memref<f32>, %a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+3]]:7: omp.loop_nest collapse(2): outermost loop -> arts.for, 1 inner loop(s) -> scf.for {arts.collapsed}
    // DEBUG-NEXT: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: private @collapse_tmp_private -> memref.alloca memref<f32> per iteration
    omp.wsloop private(@collapse_tmp_private %tmp -> %ptmp : memref<f32>) {
      omp.loop_nest (%i, %j) : index = (%c0, %c0) to (%n, %m) step (%c1, %c1) collapse(2) {
        %v = memref.load %a[%i, %j] : memref<?x?xf32>
        memref.store %v, %ptmp[] : memref<f32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A + reduction stays on arts.for; the body updates the accumulator itself; the declaration goes.
// CHECK-NOT: omp.declare_reduction
// CHECK-LABEL: func.func @reduction_add
// CHECK-SAME: %[[SUM:[^:]*]]: memref<f32>)
// CHECK: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<static>) reduction([#arts.reduction<add>] %[[SUM]] : memref<f32>) {
// CHECK: %[[S:.*]] = memref.load %[[SUM]][] : memref<f32>
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[S]]
// CHECK-NEXT: memref.store %[[R]], %[[SUM]][] : memref<f32>
// CHECK: arts.barrier
omp.declare_reduction @add_f32 : f32 init {
^bb0(%arg0: f32):
  %0 = arith.constant 0.0 : f32
  omp.yield(%0 : f32)
} combiner {
^bb0(%lhs: f32, %rhs: f32):
  %0 = arith.addf %lhs, %rhs : f32
  omp.yield(%0 : f32)
}
func.func @reduction_add(%n: index, %a: memref<?xf32>, %sum: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+2]]:5: reduction @add_f32 -> <add> on memref<f32>
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.wsloop -> arts.for schedule=static nowait=0 reductions=1
    omp.wsloop reduction(@add_f32 %sum -> %priv : memref<f32>) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %v = memref.load %a[%i] : memref<?xf32>
        %s = memref.load %priv[] : memref<f32>
        %r = arith.addf %s, %v : f32
        memref.store %r, %priv[] : memref<f32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Reduction kinds in clause order, read off muli, maxnumf, minsi and a cmpf+select combiner.
// CHECK-LABEL: func.func @reduction_kinds
// CHECK-SAME: (%{{.*}}: index, %[[P:.*]]: memref<i32>, %[[MX:.*]]: memref<1xf64>, %[[MN:.*]]: memref<i64>, %[[S:.*]]: memref<f32>)
// CHECK: reduction([#arts.reduction<mul>, #arts.reduction<max>, #arts.reduction<min>, #arts.reduction<max>] %[[P]], %[[MX]], %[[MN]], %[[S]] : memref<i32>, memref<1xf64>, memref<i64>, memref<f32>)
omp.declare_reduction @mul_i32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 1 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %0 = arith.muli %lhs, %rhs : i32
  omp.yield(%0 : i32)
}
omp.declare_reduction @max_f64 : f64 init {
^bb0(%arg0: f64):
  %0 = arith.constant 0xFFF0000000000000 : f64
  omp.yield(%0 : f64)
} combiner {
^bb0(%lhs: f64, %rhs: f64):
  %0 = arith.maxnumf %lhs, %rhs : f64
  omp.yield(%0 : f64)
}
omp.declare_reduction @min_i64 : i64 init {
^bb0(%arg0: i64):
  %0 = arith.constant 9223372036854775807 : i64
  omp.yield(%0 : i64)
} combiner {
^bb0(%lhs: i64, %rhs: i64):
  %0 = arith.minsi %lhs, %rhs : i64
  omp.yield(%0 : i64)
}
omp.declare_reduction @max_select_f32 : f32 init {
^bb0(%arg0: f32):
  %0 = arith.constant 0xFF800000 : f32
  omp.yield(%0 : f32)
} combiner {
^bb0(%lhs: f32, %rhs: f32):
  %lt = arith.cmpf olt, %lhs, %rhs : f32
  %0 = arith.select %lt, %rhs, %lhs : f32
  omp.yield(%0 : f32)
}
func.func @reduction_kinds(%n: index, %p: memref<i32>, %mx: memref<1xf64>, %mn: memref<i64>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop reduction(@mul_i32 %p -> %pp, @max_f64 %mx -> %pmx, @min_i64 %mn -> %pmn, @max_select_f32 %s -> %ps : memref<i32>, memref<1xf64>, memref<i64>, memref<f32>) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A by-reference reduction (its combiner loads and stores) is recognised too.
// CHECK-LABEL: func.func @reduction_byref
// CHECK-SAME: %[[SUM:[^:]*]]: memref<f32>)
// CHECK: reduction([#arts.reduction<add>] %[[SUM]] : memref<f32>)
// CHECK: memref.load %[[SUM]][]
omp.declare_reduction @add_f32_byref : memref<f32> alloc {
  %0 = memref.alloc() : memref<f32>
  omp.yield(%0 : memref<f32>)
} init {
^bb0(%mold: memref<f32>, %alloc: memref<f32>):
  %0 = arith.constant 0.0 : f32
  memref.store %0, %alloc[] : memref<f32>
  omp.yield(%alloc : memref<f32>)
} combiner {
^bb0(%lhs: memref<f32>, %rhs: memref<f32>):
  %a = memref.load %lhs[] : memref<f32>
  %b = memref.load %rhs[] : memref<f32>
  %0 = arith.addf %a, %b : f32
  memref.store %0, %lhs[] : memref<f32>
  omp.yield(%lhs : memref<f32>)
}
func.func @reduction_byref(%n: index, %sum: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop reduction(byref @add_f32_byref %sum -> %priv : memref<f32>) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %s = memref.load %priv[] : memref<f32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// The integer kinds C adds: unsigned max (also as an unsigned compare+select), unsigned min,
// & | ^, and && || (compare both sides with zero, combine, widen back to the type).
// CHECK-LABEL: func.func @reduction_integer_kinds
// CHECK: reduction([#arts.reduction<umax>, #arts.reduction<umax>, #arts.reduction<umin>, #arts.reduction<band>, #arts.reduction<bor>, #arts.reduction<bxor>, #arts.reduction<land>, #arts.reduction<lor>]
omp.declare_reduction @max_ui32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 0 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %0 = arith.maxui %lhs, %rhs : i32
  omp.yield(%0 : i32)
}
omp.declare_reduction @max_select_ui32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 0 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %gt = arith.cmpi ugt, %lhs, %rhs : i32
  %0 = arith.select %gt, %lhs, %rhs : i32
  omp.yield(%0 : i32)
}
omp.declare_reduction @min_ui64 : i64 init {
^bb0(%arg0: i64):
  %0 = arith.constant -1 : i64
  omp.yield(%0 : i64)
} combiner {
^bb0(%lhs: i64, %rhs: i64):
  %0 = arith.minui %lhs, %rhs : i64
  omp.yield(%0 : i64)
}
omp.declare_reduction @and_i32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant -1 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %0 = arith.andi %lhs, %rhs : i32
  omp.yield(%0 : i32)
}
omp.declare_reduction @or_i32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 0 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %0 = arith.ori %lhs, %rhs : i32
  omp.yield(%0 : i32)
}
omp.declare_reduction @xor_i32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 0 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %0 = arith.xori %lhs, %rhs : i32
  omp.yield(%0 : i32)
}
omp.declare_reduction @land_i32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 1 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %z = arith.constant 0 : i32
  %a = arith.cmpi ne, %lhs, %z : i32
  %b = arith.cmpi ne, %rhs, %z : i32
  %c = arith.andi %a, %b : i1
  %0 = arith.extui %c : i1 to i32
  omp.yield(%0 : i32)
}
omp.declare_reduction @lor_i32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 0 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %z = arith.constant 0 : i32
  %a = arith.cmpi ne, %lhs, %z : i32
  %b = arith.cmpi ne, %rhs, %z : i32
  %c = arith.ori %a, %b : i1
  %0 = arith.extui %c : i1 to i32
  omp.yield(%0 : i32)
}
func.func @reduction_integer_kinds(%n: index, %a: memref<i32>, %b: memref<i32>, %c: memref<i64>, %d: memref<i32>, %e: memref<i32>, %f: memref<i32>, %g: memref<i32>, %h: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop reduction(@max_ui32 %a -> %pa, @max_select_ui32 %b -> %pb, @min_ui64 %c -> %pc, @and_i32 %d -> %pd, @or_i32 %e -> %pe, @xor_i32 %f -> %pf, @land_i32 %g -> %pg, @lor_i32 %h -> %ph : memref<i32>, memref<i32>, memref<i64>, memref<i32>, memref<i32>, memref<i32>, memref<i32>, memref<i32>) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Atomic updates that are a shared scalar's only use in the team become reductions of the
// loop (plain load, combine, store on the accumulator); an update whose old value is used
// (a capture) stays atomic.
// CHECK-LABEL: func.func @atomic_reductions
// CHECK-SAME: (%{{.*}}: index, %[[S:.*]]: memref<f64>, %[[C:.*]]: memref<i32>, %[[T:.*]]: memref<i32>, %[[O:.*]]: memref<i32>)
// CHECK: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<static>) reduction([#arts.reduction<add>, #arts.reduction<bor>] %[[S]], %[[C]] : memref<f64>, memref<i32>) {
// CHECK: %[[LS:.*]] = memref.load %[[S]][] : memref<f64>
// CHECK-NEXT: %[[NS:.*]] = arith.addf %[[LS]], %{{.*}} : f64
// CHECK-NEXT: memref.store %[[NS]], %[[S]][] : memref<f64>
// CHECK: %[[LC:.*]] = memref.load %[[C]][] : memref<i32>
// CHECK-NEXT: %[[NC:.*]] = arith.ori %[[LC]], %{{.*}} : i32
// CHECK-NEXT: memref.store %[[NC]], %[[C]][] : memref<i32>
// CHECK: memref.generic_atomic_rmw %[[T]][] : memref<i32>
// CHECK-NOT: memref.atomic_rmw
func.func @atomic_reductions(%n: index, %s: memref<f64>, %c: memref<i32>, %t: memref<i32>, %o: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %bit = arith.constant 4 : i32
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+3]]:5: atomic update of memref<f64> (1 in the loop, its only use in the team) -> reduction <add>
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+2]]:5: atomic update of memref<i32> (1 in the loop, its only use in the team) -> reduction <bor>
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+9]]:14: atomic update of memref<i32> stays atomic (its old value is used or it is no reduction operator)
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %0 = memref.atomic_rmw addf %half, %s[] : (f64, memref<f64>) -> f64
        %1 = memref.generic_atomic_rmw %c[] : memref<i32> {
        ^bb0(%cur: i32):
          %2 = arith.ori %cur, %bit : i32
          memref.atomic_yield %2 : i32
        }
        %3 = memref.generic_atomic_rmw %t[] : memref<i32> {
        ^bb0(%cur: i32):
          %4 = arith.addi %cur, %bit : i32
          memref.atomic_yield %4 : i32
        }
        memref.store %3, %o[] : memref<i32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// private/firstprivate on a parallel region: a fresh alloca per task (with the original's
// dynamic sizes); the copy region initialises the firstprivate one from the original.
// CHECK-NOT: omp.private
// CHECK-LABEL: func.func @parallel_private
// CHECK-SAME: (%[[BUF:.*]]: memref<?xf32>, %[[X:.*]]: memref<i32>)
// CHECK: arts.edt <parallel>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[DIM:.*]] = memref.dim %[[BUF]], %[[ZERO]] : memref<?xf32>
// CHECK-NEXT: %[[PBUF:.*]] = memref.alloca(%[[DIM]]) : memref<?xf32>
// CHECK-NEXT: %[[PX:.*]] = memref.alloca() : memref<i32>
// CHECK-NEXT: %[[ORIG:.*]] = memref.load %[[X]][] : memref<i32>
// CHECK-NEXT: memref.store %[[ORIG]], %[[PX]][] : memref<i32>
// CHECK-NEXT: memref.store %{{.*}}, %[[PBUF]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[PX]][] : memref<i32>
// CHECK-NEXT: memref.store %[[V]], %[[PX]][] : memref<i32>
// CHECK-NEXT: }
omp.private {type = private} @buf_private : memref<?xf32>
omp.private {type = firstprivate} @x_firstprivate : memref<i32> copy {
^bb0(%orig: memref<i32>, %copy: memref<i32>):
  %v = memref.load %orig[] : memref<i32>
  memref.store %v, %copy[] : memref<i32>
  omp.yield(%copy : memref<i32>)
}
func.func @parallel_private(%buf: memref<?xf32>, %x: memref<i32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+3]]:3: omp.parallel -> arts.edt <parallel> workers=unset privates=2
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+2]]:3: private @buf_private -> memref.alloca memref<?xf32> per task
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:3: firstprivate @x_firstprivate -> memref.alloca memref<i32> per task
  omp.parallel private(@buf_private %buf -> %pbuf, @x_firstprivate %x -> %px : memref<?xf32>, memref<i32>) {
    memref.store %f, %pbuf[%c0] : memref<?xf32>
    %v = memref.load %px[] : memref<i32>
    memref.store %v, %px[] : memref<i32>
    omp.terminator
  }
  return
}

// -----

// A privatizer's init and dealloc regions are inlined at the start and the end of the task.
// CHECK-LABEL: func.func @private_init_dealloc
// CHECK: arts.edt <parallel>
// CHECK-NEXT: %[[PT:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: %[[INIT:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: memref.store %[[INIT]], %[[PT]][]
// CHECK-NEXT: memref.store %{{.*}}, %[[PT]][]
// CHECK-NEXT: %[[FINI:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: memref.store %[[FINI]], %[[PT]][]
// CHECK-NEXT: }
omp.private {type = private} @t_private : memref<f32> init {
^bb0(%mold: memref<f32>, %copy: memref<f32>):
  %z = arith.constant 0.0 : f32
  memref.store %z, %copy[] : memref<f32>
  omp.yield(%copy : memref<f32>)
} dealloc {
^bb0(%copy: memref<f32>):
  %z = arith.constant 2.0 : f32
  memref.store %z, %copy[] : memref<f32>
  omp.yield
}
func.func @private_init_dealloc(%t: memref<f32>) {
  %f = arith.constant 1.0 : f32
  omp.parallel private(@t_private %t -> %pt : memref<f32>) {
    memref.store %f, %pt[] : memref<f32>
    omp.terminator
  }
  return
}

// -----

// private on a work-sharing loop: one copy per iteration, inside an alloca_scope (the
// arts.for body is what becomes the per-chunk tasks).
// CHECK-LABEL: func.func @wsloop_private
// CHECK: arts.for
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: %[[PTMP:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[I]]]
// CHECK-NEXT: memref.store %[[V]], %[[PTMP]][]
// CHECK-NEXT: }
// CHECK-NEXT: }
omp.private {type = private} @tmp_private : memref<f32>
func.func @wsloop_private(%n: index, %tmp: memref<f32>, %a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: private @tmp_private -> memref.alloca memref<f32> per iteration
    omp.wsloop private(@tmp_private %tmp -> %ptmp : memref<f32>) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        %v = memref.load %a[%i] : memref<?xf32>
        memref.store %v, %ptmp[] : memref<f32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Thread-private storage at the top of the parallel region (how the front end hoists the
// locals of a loop body) moves into the loop when only the loop uses it; the rest stays.
// CHECK-LABEL: func.func @thread_private_storage
// CHECK: arts.edt <parallel>
// CHECK-NEXT: %[[SHARED:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: memref.store %{{.*}}, %[[SHARED]][]
// CHECK-NEXT: arts.for
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: %[[LOCAL:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: memref.store %{{.*}}, %[[LOCAL]][]
// CHECK-NEXT: memref.load %[[SHARED]][]
func.func @thread_private_storage(%n: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    %shared = memref.alloca() : memref<f32>
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:14: thread-private memref.alloca memref<f32> used only by the loop at {{.*}}convert.mlir:[[@LINE+3]]:5 -> per iteration
    %local = memref.alloca() : memref<f32>
    memref.store %f, %shared[] : memref<f32>
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %f, %local[] : memref<f32>
        %v = memref.load %shared[] : memref<f32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// single gets a barrier unless nowait; masked and master run once without one;
// omp.barrier stays a barrier.
// CHECK-LABEL: func.func @single_masked_barrier
// CHECK: arts.edt <parallel>
// CHECK: arts.edt <single> <intranode> route(%{{.*}}) attributes {no_verify} {
// CHECK-NEXT: memref.store %[[ONE:[^,]*]],
// CHECK-NEXT: }
// CHECK-NEXT: arts.barrier
// CHECK: arts.edt <single> <intranode> route(%{{.*}}) attributes {no_verify} {
// CHECK-NEXT: memref.store %[[TWO:[^,]*]],
// CHECK-NEXT: }
// CHECK-NEXT: arts.barrier
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT: arts.edt <single> <intranode> route(%{{.*}}) attributes {no_verify} {
// CHECK-NEXT: memref.store %[[THREE:[^,]*]],
// CHECK-NEXT: }
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT: arts.edt <single> <intranode> route(%{{.*}}) attributes {no_verify} {
// CHECK-NEXT: memref.store %[[FOUR:[^,]*]],
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @single_masked_barrier(%m: memref<f32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %tid0 = arith.constant 0 : i32
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.single -> arts.edt <single> barrier=1
    omp.single {
      memref.store %one, %m[] : memref<f32>
      omp.terminator
    }
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.single -> arts.edt <single> barrier=0
    omp.single nowait {
      memref.store %two, %m[] : memref<f32>
      omp.terminator
    }
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.barrier -> arts.barrier
    omp.barrier
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.masked -> arts.edt <single> barrier=0
    omp.masked filter(%tid0 : i32) {
      memref.store %three, %m[] : memref<f32>
      omp.terminator
    }
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:5: omp.master -> arts.edt <single> barrier=0
    omp.master {
      memref.store %four, %m[] : memref<f32>
      omp.terminator
    }
    omp.terminator
  }
  return
}

// -----

// An orphaned work-sharing loop (no enclosing parallel region) gets a parallel task of its own.
// CHECK-LABEL: func.func @orphaned_wsloop
// CHECK: %[[ROUTE:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arts.edt <parallel> <intranode> route(%[[ROUTE]]) attributes {no_verify} {
// CHECK-NEXT: arts.for
// CHECK: arts.barrier
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @orphaned_wsloop(%n: index, %a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:3: orphaned omp.wsloop -> its own arts.edt <parallel>
  omp.wsloop {
    omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
      memref.store %f, %a[%i] : memref<?xf32>
      omp.yield
    }
  }
  return
}

// -----

// A work-sharing loop under a sequential loop that is its whole parallel region: the loop
// goes outside, a parallel region per iteration (as in @time_loop).
// CHECK-LABEL: func.func @wsloop_in_sequential_loop
// CHECK: scf.for
// CHECK: arts.edt <parallel>
// CHECK-NEXT: arts.for
// CHECK: arts.barrier
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @wsloop_in_sequential_loop(%t: index, %n: index, %a: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    scf.for %step = %c0 to %t step %c1 {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
          memref.store %f, %a[%i] : memref<?xf32>
          omp.yield
        }
      }
    }
    omp.terminator
  }
  return
}

// -----

// Bodies of several blocks keep their control flow inside scf.execute_region.
// CHECK-LABEL: func.func @multi_block_bodies
// CHECK: arts.edt <parallel>
// CHECK-NEXT: scf.execute_region {
// CHECK-NEXT: cf.cond_br
// CHECK: arts.for
// CHECK-NEXT: ^bb0(%{{.*}}: index):
// CHECK-NEXT: scf.execute_region {
// CHECK-NEXT: cf.cond_br
// CHECK: scf.yield
// CHECK: scf.yield
// CHECK: arts.barrier
// CHECK-NEXT: scf.yield
// CHECK-NOT: omp.
func.func @multi_block_bodies(%n: index, %a: memref<?xf32>, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  omp.parallel {
    cf.cond_br %cond, ^bb1, ^bb2
  ^bb1:
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        cf.cond_br %cond, ^body, ^skip
      ^body:
        memref.store %f, %a[%i] : memref<?xf32>
        omp.yield
      ^skip:
        omp.yield
      }
    }
    omp.terminator
  ^bb2:
    omp.terminator
  }
  return
}

// -----

// omp_get_* calls become runtime queries and their declarations go; other omp_* calls stay.
// CHECK-NOT: @omp_get_thread_num
// CHECK-NOT: @omp_get_num_threads
// CHECK-NOT: @omp_get_max_threads
// CHECK: func.func private @omp_get_wtime() -> f64
// Outside a parallel region the team is the initial thread alone: number 0 of 1.
// CHECK-LABEL: func.func @runtime_queries
// CHECK: %[[MAX:.*]] = arts.runtime_query <total_workers> : i32
// CHECK-NEXT: memref.store %[[MAX]]
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: memref.store %[[ZERO]], %{{.*}}[%{{.*}}] : memref<3xi32>
// CHECK-NEXT: memref.store %[[ONE]], %{{.*}}[%{{.*}}] : memref<3xi32>
// CHECK: arts.edt <parallel>
// CHECK-NEXT: %[[TID:.*]] = arts.runtime_query <current_worker> : i32
// CHECK-NEXT: %[[NTH:.*]] = arts.runtime_query <total_workers> : i32
// CHECK-NEXT: memref.store %[[TID]]
// CHECK-NEXT: memref.store %[[NTH]]
// CHECK: call @omp_get_wtime()
func.func private @omp_get_thread_num() -> i32
func.func private @omp_get_num_threads() -> i32
func.func private @omp_get_max_threads() -> i32
func.func private @omp_get_wtime() -> f64
func.func @runtime_queries(%m: memref<3xi32>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %max = func.call @omp_get_max_threads() : () -> i32
  memref.store %max, %m[%c2] : memref<3xi32>
  // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:11: omp_get_thread_num outside a parallel region -> 0
  %tid0 = func.call @omp_get_thread_num() : () -> i32
  %nth0 = func.call @omp_get_num_threads() : () -> i32
  memref.store %tid0, %m[%c0] : memref<3xi32>
  memref.store %nth0, %m[%c1] : memref<3xi32>
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:12: omp_get_thread_num -> arts.runtime_query <current_worker>
    %tid = func.call @omp_get_thread_num() : () -> i32
    %nth = func.call @omp_get_num_threads() : () -> i32
    memref.store %tid, %m[%c0] : memref<3xi32>
    memref.store %nth, %m[%c1] : memref<3xi32>
    omp.terminator
  }
  %t = func.call @omp_get_wtime() : () -> f64
  return %t : f64
}

// -----

// The routines that describe the enclosing regions, inside a parallel region: level 1, active
// when the team has more than one thread, the team's size and thread number at level 1 (the
// initial thread's at level 0, -1 beyond). Outside, the calls stay for the runtime to answer.
// CHECK-LABEL: func.func @team_routines
// CHECK: call @omp_get_level()
// CHECK: arts.edt <parallel>
// CHECK-DAG: %[[N:.*]] = arts.runtime_query <total_workers> : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[SEVERAL:.*]] = arith.cmpi sgt, %[[N]], %[[ONE]] : i32
// CHECK-NEXT: %[[ACTIVE:.*]] = arith.extui %[[SEVERAL]] : i1 to i32
// CHECK-NEXT: %[[LEVEL:.*]] = arith.constant 1 : i32
// CHECK: %[[TID:.*]] = arts.runtime_query <current_worker> : i32
// CHECK: %[[L0:.*]] = arith.cmpi eq, %[[ARG:.*]], %{{.*}} : i32
// CHECK: %[[L1:.*]] = arith.cmpi eq, %[[ARG]], %{{.*}} : i32
// CHECK-NEXT: %[[BEYOND:.*]] = arith.constant -1 : i32
// CHECK-NEXT: %[[INNER:.*]] = arith.select %[[L1]], %[[TID]], %[[BEYOND]] : i32
// CHECK-NEXT: %[[ANCESTOR:.*]] = arith.select %[[L0]], %{{.*}}, %[[INNER]] : i32
// CHECK: memref.store %[[ACTIVE]]
// CHECK-NEXT: memref.store %[[LEVEL]]
// CHECK-NEXT: memref.store %[[ANCESTOR]]
// CHECK-NOT: call @omp_
func.func private @omp_in_parallel() -> i32
func.func private @omp_get_level() -> i32
func.func private @omp_get_ancestor_thread_num(i32) -> i32
func.func @team_routines(%m: memref<4xi32>, %level: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %outside = func.call @omp_get_level() : () -> i32
  memref.store %outside, %m[%c3] : memref<4xi32>
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}convert.mlir:[[@LINE+1]]:15: omp_in_parallel inside a parallel region -> its value there
    %active = func.call @omp_in_parallel() : () -> i32
    %inner = func.call @omp_get_level() : () -> i32
    %tid = func.call @omp_get_ancestor_thread_num(%level) : (i32) -> i32
    memref.store %active, %m[%c0] : memref<4xi32>
    memref.store %inner, %m[%c1] : memref<4xi32>
    memref.store %tid, %m[%c2] : memref<4xi32>
    omp.terminator
  }
  return
}
// DEBUG: [openmp-to-arts] {{.*}}convert.mlir:{{[0-9]+}}:1: erased unused declaration @omp_get_thread_num

//--- invalid.mlir

// Constructs without an ARTS counterpart fail at their location.
func.func @unsupported_flush() {
  omp.parallel {
    // expected-error @+1 {{unsupported OpenMP construct 'omp.flush'}}
    omp.flush
    omp.terminator
  }
  return
}

// -----

// Reductions are kept on work-sharing loops only.
omp.declare_reduction @add_i32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 0 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %0 = arith.addi %lhs, %rhs : i32
  omp.yield(%0 : i32)
}
func.func @parallel_reduction(%s: memref<i32>) {
  // expected-error @+1 {{reduction clause on omp.parallel is not supported}}
  omp.parallel reduction(@add_i32 %s -> %ps : memref<i32>) {
    omp.terminator
  }
  return
}

// -----

// A pointer accumulator cannot be an arts.for reduction operand.
omp.declare_reduction @add_f32 : f32 init {
^bb0(%arg0: f32):
  %0 = arith.constant 0.0 : f32
  omp.yield(%0 : f32)
} combiner {
^bb0(%lhs: f32, %rhs: f32):
  %0 = arith.addf %lhs, %rhs : f32
  omp.yield(%0 : f32)
}
func.func @pointer_accumulator(%n: index, %s: !llvm.ptr) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    // expected-error @+1 {{reduction accumulator of type '!llvm.ptr' is not a memref}}
    omp.wsloop reduction(@add_f32 %s -> %ps : !llvm.ptr) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A combiner that is no C reduction operator (here a division) has no ARTS reduction kind.
omp.declare_reduction @div_i32 : i32 init {
^bb0(%arg0: i32):
  %0 = arith.constant 1 : i32
  omp.yield(%0 : i32)
} combiner {
^bb0(%lhs: i32, %rhs: i32):
  %0 = arith.divsi %lhs, %rhs : i32
  omp.yield(%0 : i32)
}
func.func @div_reduction(%n: index, %s: memref<i32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    // expected-error @+1 {{reduction @div_i32 cannot be kept on arts.for: its combiner is not one of + * max min & | ^ && ||}}
    omp.wsloop reduction(@div_i32 %s -> %ps : memref<i32>) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Only memref variables can be privatized.
omp.private {type = private} @p_private : !llvm.ptr
func.func @pointer_private(%p: !llvm.ptr) {
  // expected-error @+1 {{private variable of type '!llvm.ptr' is not a memref}}
  omp.parallel private(@p_private %p -> %pp : !llvm.ptr) {
    omp.terminator
  }
  return
}

// -----

// A privatizer with control flow is rejected.
omp.private {type = firstprivate} @branchy_firstprivate : memref<i32> copy {
^bb0(%orig: memref<i32>, %copy: memref<i32>):
  cf.br ^bb1
^bb1:
  omp.yield(%copy : memref<i32>)
}
func.func @branchy_private(%x: memref<i32>) {
  // expected-error @+1 {{privatizer @branchy_firstprivate has control flow in a region}}
  omp.parallel private(@branchy_firstprivate %x -> %px : memref<i32>) {
    omp.terminator
  }
  return
}

// -----

// Doacross loops (ordered(n)) are rejected; an ordered region must sit directly in the
// body of an ordered loop.
func.func @ordered_wsloop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    // expected-error @+1 {{ordered(n) on omp.wsloop (doacross) is not supported}}
    omp.wsloop ordered(1) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

func.func @ordered_region_in_if(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop ordered(0) {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        scf.if %c {
          // expected-error @+1 {{omp.ordered.region must be directly in the body of a loop with the 'ordered' clause}}
          omp.ordered.region {
            omp.terminator
          }
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// arts.for needs a positive step.
func.func @negative_step(%n: i32) {
  %c0 = arith.constant 0 : i32
  %cm1 = arith.constant -1 : i32
  omp.parallel {
    omp.wsloop {
      // expected-error @+1 {{omp.loop_nest with a non-positive step (-1) is not supported}}
      omp.loop_nest (%i) : i32 = (%n) to (%c0) step (%cm1) {
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// masked for another thread than 0 is rejected.
func.func @masked_filter() {
  %c1 = arith.constant 1 : i32
  omp.parallel {
    // expected-error @+1 {{omp.masked with a filter other than thread 0 is not supported}}
    omp.masked filter(%c1 : i32) {
      omp.terminator
    }
    omp.terminator
  }
  return
}


// -----

// An orphaned loop in a function also called from a parallel region would nest parallelism.
func.func @orphan_helper(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{orphaned omp.wsloop in @orphan_helper, which is called inside a parallel region}}
  omp.wsloop {
    omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
      omp.yield
    }
  }
  return
}
func.func @calls_helper_in_parallel(%n: index) {
  omp.parallel {
    func.call @orphan_helper(%n) : (index) -> ()
    omp.terminator
  }
  return
}

// -----

// A work-sharing loop closely nested in single is not shared among a team.
func.func @wsloop_in_single(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.single {
      // expected-error @+1 {{omp.wsloop closely nested in 'omp.single' is not supported}}
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
          omp.yield
        }
      }
      omp.terminator
    }
    omp.terminator
  }
  return
}

// -----

// A runtime query declared with another signature is rejected.
func.func private @omp_get_thread_num() -> i64
func.func @query_signature() -> i64 {
  // expected-error @+1 {{'omp_get_thread_num' must take no argument and return i32}}
  %t = func.call @omp_get_thread_num() : () -> i64
  return %t : i64
}

// -----

// Composite loop constructs (wsloop + simd) are rejected, each at its own op.
func.func @composite_simd(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    // expected-error @+1 {{omp.wsloop must directly wrap an omp.loop_nest}}
    omp.wsloop {
      // expected-error @+1 {{unsupported OpenMP construct 'omp.simd'}}
      omp.simd {
        omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
          omp.yield
        }
      } {omp.composite}
    } {omp.composite}
    omp.terminator
  }
  return
}
