// RUN: carts cgeist %s -S | FileCheck %s

// && and || short-circuit: when the right operand may trap or have effects it is
// evaluated in an scf.if; a cheap pure one is combined with arith.andi/ori.

// CHECK-LABEL: func.func @guarded(
// CHECK: %[[IN:.*]] = arith.cmpi slt, %arg1, %arg2 : i32
// CHECK: %[[R:.*]] = scf.if %[[IN]] -> (i1) {
// CHECK:   memref.load %arg0
// CHECK:   scf.yield %{{.*}} : i1
// CHECK: } else {
// CHECK:   %[[F:.*]] = arith.constant false
// CHECK:   scf.yield %[[F]] : i1
// CHECK: }
// CHECK: arith.extui %[[R]] : i1 to i32
int guarded(int *a, int i, int n) { return i < n && a[i] > 0; }

// CHECK-LABEL: func.func @cheap(
// CHECK: %[[A:.*]] = arith.cmpi sgt, %arg0, %{{.*}}
// CHECK: %[[B:.*]] = arith.cmpi slt, %arg1, %{{.*}}
// CHECK: arith.ori %[[A]], %[[B]] : i1
int cheap(int x, int y) { return x > 0 || y < 0; }

// `!` negates the i1; bitwise operators stay integer operations.
// CHECK-LABEL: func.func @bits(
// CHECK: arith.xori %{{.*}}, %true : i1
// CHECK: arith.andi %{{.*}}, %{{.*}} : i32
// CHECK: arith.xori %{{.*}}, %{{.*}} : i32
// CHECK: arith.shli
int bits(int x, int y) { return !(x == y) + ((x & y) ^ ~x) + (x << 2); }
