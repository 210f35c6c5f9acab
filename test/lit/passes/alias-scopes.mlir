// arts-alias-scopes: in a function whose marked accesses reach two allocations, each marked
// memref.load/store becomes an llvm.load/store with its allocation's scope and the other's
// as noalias (one domain per function), addressed as finalize-memref-to-llvm addresses it;
// unmarked accesses are left to finalize-memref-to-llvm. A function with one allocation keeps
// no marks and gets no scopes.
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-alias-scopes)' | FileCheck %s
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-alias-scopes,finalize-memref-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)' | FileCheck %s --check-prefix=LLVM

// CHECK-DAG: #[[DOM:.*]] = #llvm.alias_scope_domain<id = distinct[{{[0-9]+}}]<>, description = "two">
// CHECK-DAG: #[[S0:.*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOM]], description = "two allocation 0">
// CHECK-DAG: #[[S1:.*]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOM]], description = "two allocation 1">
// CHECK-LABEL: func.func @two
// CHECK: llvm.getelementptr inbounds|nuw %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[S0]]], noalias_scopes = [#[[S1]]]} : !llvm.ptr -> f64
// CHECK: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[S1]]], noalias_scopes = [#[[S0]]]} : f64, !llvm.ptr
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf64>
// CHECK-LABEL: func.func @one
// CHECK-NOT: alias_array
// CHECK-NOT: alias_scopes
// CHECK: return
// LLVM-LABEL: llvm.func @two
// LLVM-NOT: memref.
// LLVM: llvm.return
func.func @two(%a: memref<?xf64>, %b: memref<?xf64>, %t: memref<4xf64>, %i: index) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%i] {arts.alias_array = 0 : i64} : memref<?xf64>
  memref.store %x, %b[%i] {arts.alias_array = 1 : i64} : memref<?xf64>
  memref.store %x, %t[%c0] : memref<4xf64>
  return
}

func.func @one(%a: memref<?xf64>, %i: index) {
  %x = memref.load %a[%i] {arts.alias_array = 0 : i64} : memref<?xf64>
  %j = arith.constant 0 : index
  memref.store %x, %a[%j] {arts.alias_array = 0 : i64} : memref<?xf64>
  return
}
