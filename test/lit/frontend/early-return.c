// RUN: carts cgeist %s -S | FileCheck %s

// A return that is not the last statement stores the value and sets a flag; the
// code after it is guarded, loops stop on the flag, and the function ends with one
// func.return of the stored value.

// CHECK-LABEL: func.func @find(
// CHECK-DAG: %[[RET:.*]] = memref.alloca() : memref<i8>
// CHECK-DAG: %[[VAL:.*]] = memref.alloca() : memref<i32>
// CHECK: scf.while
// CHECK:   memref.load %[[RET]][] : memref<i8>
// CHECK:   scf.condition
// CHECK: } do {
// CHECK:   scf.if %{{.*}} {
// CHECK:     memref.store %{{.*}}, %[[VAL]][] : memref<i32>
// CHECK:     memref.store %{{.*}}, %[[RET]][] : memref<i8>
// CHECK: %[[R:.*]] = memref.load %[[RET]][] : memref<i8>
// CHECK: %[[NOT:.*]] = arith.cmpi eq, %[[R]], %{{.*}} : i8
// CHECK: scf.if %[[NOT]] {
// CHECK:   %[[M1:.*]] = arith.constant -1 : i32
// CHECK:   memref.store %[[M1]], %[[VAL]][] : memref<i32>
// CHECK: }
// CHECK: %[[V:.*]] = memref.load %[[VAL]][] : memref<i32>
// CHECK: return %[[V]] : i32
int find(int *a, int n, int key) {
  for (int i = 0; i < n; i++)
    if (a[i] == key)
      return i;
  return -1;
}

// A single final return is a plain func.return.
// CHECK-LABEL: func.func @plain(
// CHECK-NOT: memref.alloca
// CHECK: return %{{.*}} : i32
int plain(int x) { return x + 1; }

// `if (c) return v;` followed by more code: the rest is the else branch.
// CHECK-LABEL: func.func @clamp(
// CHECK: scf.if %{{.*}} {
// CHECK:   memref.store %{{.*}}, %{{.*}}[] : memref<f32>
// CHECK: } else {
// CHECK:   arith.mulf
// CHECK: }
float clamp(float x) {
  if (x < 0.0f)
    return 0.0f;
  x = x * 2.0f;
  return x;
}

// main falls off its end: it returns 0.
// CHECK-LABEL: func.func @main(
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: return %[[Z]] : i32
int main(void) {}
