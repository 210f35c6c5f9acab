// RUN: carts cgeist %s -S | FileCheck %s

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// printf is a varargs llvm.call with its format as an llvm.mlir.global string;
// fprintf(stderr, ...) loads the libc global; other library functions are
// func.func declarations with C-ABI types (pointers as !llvm.ptr).

// CHECK-DAG: llvm.mlir.global internal constant @str0("n=%d x=%f\0A\00") {addr_space = 0 : i32}
// CHECK-DAG: llvm.mlir.global internal constant @str1("oops %s\0A\00") {addr_space = 0 : i32}
// CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.mlir.global external @stderr() {addr_space = 0 : i32} : !llvm.ptr
// CHECK-DAG: func.func private @srand(i32)
// CHECK-DAG: func.func private @rand() -> i32
// CHECK-DAG: func.func private @atoi(!llvm.ptr) -> i32
// CHECK-DAG: func.func private @exit(i32)

// CHECK-LABEL: func.func @report(
// CHECK: %[[FMT:.*]] = llvm.mlir.addressof @str0 : !llvm.ptr
// CHECK: %[[D:.*]] = arith.extf %arg1 : f32 to f64
// CHECK: llvm.call @printf(%[[FMT]], %arg0, %[[D]]) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, f64) -> i32
// CHECK: %[[ERRP:.*]] = llvm.mlir.addressof @stderr : !llvm.ptr
// CHECK: %[[ERR:.*]] = llvm.load %[[ERRP]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @fprintf(%[[ERR]], %{{.*}}, %arg2) vararg(!llvm.func<i32 (ptr, ptr, ...)>)
void report(int n, float x, const char *what) {
  printf("n=%d x=%f\n", n, x);
  fprintf(stderr, "oops %s\n", what);
}

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %arg0: i32, %arg1: !llvm.ptr) -> i32
// CHECK: call @srand(%{{.*}}) : (i32) -> ()
// argv[1] is a getelementptr and a load of a pointer.
// CHECK: %[[AP:.*]] = llvm.getelementptr %arg1[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A1:.*]] = llvm.load %[[AP]] : !llvm.ptr -> !llvm.ptr
// CHECK: call @atoi(%[[A1]]) : (!llvm.ptr) -> i32
// CHECK: call @rand() : () -> i32
// memset/memcpy on arrays are loops of stores (visible to later passes).
// CHECK: scf.for %[[K:.*]] =
// CHECK:   memref.store %{{.*}}, %[[BUF:.*]][%[[K]]] : memref<8xi32>
// CHECK: scf.for %[[L:.*]] =
// CHECK:   %[[V:.*]] = memref.load %[[BUF]][%[[L]]] : memref<8xi32>
// CHECK:   memref.store %[[V]], %{{.*}}[%[[L]]] : memref<?xi32>
// CHECK: call @exit(%{{.*}}) : (i32) -> ()
int main(int argc, char **argv) {
  srand(42);
  int n = argc > 1 ? atoi(argv[1]) : rand() % 10;
  int buf[8];
  memset(buf, 0, sizeof(buf));
  int *copy = (int *)malloc(8 * sizeof(int));
  memcpy(copy, buf, 8 * sizeof(int));
  report(n, 1.5f, "x");
  if (copy[3] != 0)
    exit(1);
  free(copy);
  return 0;
}
