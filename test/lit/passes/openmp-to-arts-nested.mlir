// arts-openmp-to-arts on parallel regions reached from inside another: a call from a
// parallel region to a function holding one calls a copy whose regions run as a team of
// one (libgomp's default), as does a region nested in another in place: the body where
// the region was, a worksharing loop as plain loops (its reduction into the variable), a
// single its statements, a barrier nothing, the thread queries answering for that team.
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-openmp-to-arts)' | FileCheck %s
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-openmp-to-arts)' --debug-only=openmp-to-arts 2>&1 | FileCheck %s --check-prefix=DEBUG

// A region nested in another in place: its single's body where the region was.
// CHECK-LABEL: func.func @in_place
// CHECK: arts.edt <parallel>
// CHECK-NOT: arts.edt <single>
// CHECK: %[[LEVEL:.*]] = arith.constant 2 : i32
// CHECK: memref.store %[[LEVEL]], %arg0[]
func.func @in_place(%l: memref<i32>) {
  omp.parallel {
    // DEBUG: [openmp-to-arts] {{.*}}openmp-to-arts-nested.mlir:[[@LINE+1]]:5: omp.parallel inside another -> a team of one, in place (libgomp's default)
    omp.parallel {
      omp.single {
        %v = func.call @omp_get_level() : () -> i32
        memref.store %v, %l[] : memref<i32>
        omp.terminator
      }
      omp.terminator
    }
    omp.terminator
  }
  return
}

// CHECK-LABEL: func.func @work
// CHECK: arts.edt <parallel>
// CHECK: arts.for
// CHECK-LABEL: func.func private @work.team_of_one
// CHECK-NOT: arts.edt
// CHECK-NOT: omp.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: memref.load %arg0[%[[I]]]
// CHECK: memref.store %{{.*}}, %arg1[]
// CHECK: }
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: memref.store %[[ONE]], %arg2[]
// CHECK: return
// DEBUG: [openmp-to-arts] {{.*}}openmp-to-arts-nested.mlir:[[@LINE+1]]:1: @work holds a parallel region and is called inside one -> those calls call @work.team_of_one, whose regions run as a team of one (libgomp's default)
func.func @work(%a: memref<?xf64>, %s: memref<f64>, %n: memref<i32>, %len: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    omp.wsloop reduction(@add_f64 %s -> %acc : memref<f64>) {
      omp.loop_nest (%i) : index = (%c0) to (%len) step (%c1) {
        %v = memref.load %a[%i] : memref<?xf64>
        %old = memref.load %acc[] : memref<f64>
        %new = arith.addf %old, %v : f64
        memref.store %new, %acc[] : memref<f64>
        omp.yield
      }
    }
    omp.single {
      %t = func.call @omp_get_num_threads() : () -> i32
      memref.store %t, %n[] : memref<i32>
      omp.terminator
    }
    omp.barrier
    omp.terminator
  }
  return
}

// CHECK-LABEL: func.func @caller
// CHECK: arts.edt <parallel>
// CHECK: call @work.team_of_one(
// CHECK: call @work(
func.func @caller(%a: memref<?xf64>, %len: index) {
  %s = memref.alloca() : memref<f64>
  %n = memref.alloca() : memref<i32>
  omp.parallel {
    func.call @work(%a, %s, %n, %len) : (memref<?xf64>, memref<f64>, memref<i32>, index) -> ()
    omp.terminator
  }
  func.call @work(%a, %s, %n, %len) : (memref<?xf64>, memref<f64>, memref<i32>, index) -> ()
  return
}

omp.declare_reduction @add_f64 : f64 init {
^bb0(%x: f64):
  %z = arith.constant 0.0 : f64
  omp.yield(%z : f64)
} combiner {
^bb0(%x: f64, %y: f64):
  %r = arith.addf %x, %y : f64
  omp.yield(%r : f64)
}
func.func private @omp_get_num_threads() -> i32
func.func private @omp_get_level() -> i32
