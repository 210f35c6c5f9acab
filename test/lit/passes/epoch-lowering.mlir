// arts-epoch-lowering: an epoch becomes create_epoch, its inlined body and wait_on_epoch;
// the tasks created directly in it (the nearest enclosing epoch) join it.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-epoch-lowering)' | carts-opt --split-input-file | FileCheck %s --implicit-check-not=arts.epoch
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-epoch-lowering)' --debug-only=epoch-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// Tasks created in a loop of the epoch join it; the one created after it does not.
// CHECK-LABEL: func.func @loop_in_epoch
// CHECK: %[[E:.*]] = arts.create_epoch
// CHECK-NEXT: scf.for
// CHECK-NEXT: arts.edt_param_pack
// CHECK-NEXT: arts.edt_create @task(%{{.*}} : memref<?xi64>) deps(%{{.*}}) route(%{{.*}}) epoch(%[[E]])
// CHECK-NEXT: }
// CHECK-NEXT: arts.wait_on_epoch %[[E]]
// CHECK-NEXT: arts.edt_param_pack
// CHECK-NEXT: arts.edt_create @task(%{{.*}} : memref<?xi64>) deps(%{{.*}}) route(%{{.*}}){{$}}
// CHECK-NEXT: return
func.func private @task(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @loop_in_epoch(%n: index, %r: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  // DEBUG: [epoch-lowering] {{.*}}epoch-lowering.mlir:[[@LINE+1]]:8: epoch -> create_epoch + wait_on_epoch, 1 edt_create joined
  %e = arts.epoch {
    scf.for %i = %c0 to %n step %c1 {
      %pv = arts.edt_param_pack() : memref<?xi64>
      %t = arts.edt_create @task(%pv : memref<?xi64>) deps(%c0_i32) route(%r)
    }
  }
  %pv = arts.edt_param_pack() : memref<?xi64>
  %t = arts.edt_create @task(%pv : memref<?xi64>) deps(%c0_i32) route(%r)
  return
}

// -----

// Nested epochs: each task joins its nearest epoch; the epoch GUID keeps its uses.
// CHECK-LABEL: func.func @nested_epochs
// CHECK: %[[OUTER:.*]] = arts.create_epoch
// CHECK-NEXT: arts.edt_param_pack
// CHECK-NEXT: arts.edt_create @nested_task({{.*}}) epoch(%[[OUTER]])
// CHECK-NEXT: %[[INNER:.*]] = arts.create_epoch
// CHECK-NEXT: arts.edt_param_pack
// CHECK-NEXT: arts.edt_create @nested_task({{.*}}) epoch(%[[INNER]])
// CHECK-NEXT: arts.wait_on_epoch %[[INNER]]
// CHECK-NEXT: arts.wait_on_epoch %[[OUTER]]
// CHECK-NEXT: return %[[OUTER]] : i64
func.func private @nested_task(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  return
}
func.func @nested_epochs(%r: i32) -> i64 {
  %c0_i32 = arith.constant 0 : i32
  // DEBUG: [epoch-lowering] {{.*}}epoch-lowering.mlir:[[@LINE+1]]:8: epoch -> create_epoch + wait_on_epoch, 1 edt_create joined
  %e = arts.epoch {
    %pv = arts.edt_param_pack() : memref<?xi64>
    %t = arts.edt_create @nested_task(%pv : memref<?xi64>) deps(%c0_i32) route(%r)
    // DEBUG: [epoch-lowering] {{.*}}epoch-lowering.mlir:[[@LINE+1]]:11: epoch -> create_epoch + wait_on_epoch, 1 edt_create joined
    %ie = arts.epoch {
      %pv2 = arts.edt_param_pack() : memref<?xi64>
      %t2 = arts.edt_create @nested_task(%pv2 : memref<?xi64>) deps(%c0_i32) route(%r)
    }
  }
  return %e : i64
}

// -----

// An epoch inside an outlined task function waits inside the task.
// CHECK-LABEL: func.func private @creator
// CHECK: %[[E:.*]] = arts.create_epoch
// CHECK-NEXT: arts.edt_param_pack
// CHECK-NEXT: arts.edt_create @creator({{.*}}) epoch(%[[E]])
// CHECK-NEXT: arts.wait_on_epoch %[[E]]
// CHECK-NEXT: return
func.func private @creator(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  %c0_i32 = arith.constant 0 : i32
  // DEBUG: [epoch-lowering] {{.*}}epoch-lowering.mlir:[[@LINE+1]]:8: epoch -> create_epoch + wait_on_epoch, 1 edt_create joined
  %e = arts.epoch {
    %pv = arts.edt_param_pack() : memref<?xi64>
    %t = arts.edt_create @creator(%pv : memref<?xi64>) deps(%c0_i32) route(%c0_i32)
  }
  return
}
