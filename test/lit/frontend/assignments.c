// RUN: carts cgeist %s -S | FileCheck %s

// Compound assignments compute in the usual arithmetic type and convert back;
// ++/-- load, add one and store; an assignment is also a value.

// CHECK-LABEL: func.func @compound(
// CHECK: %[[X:.*]] = memref.alloca() : memref<f32>
// `x += d` with a double d: float -> double, add, double -> float.
// CHECK: %[[OLD:.*]] = memref.load %[[X]][] : memref<f32>
// CHECK: %[[W:.*]] = arith.extf %[[OLD]] : f32 to f64
// CHECK: %[[S:.*]] = arith.addf %[[W]], %arg1 : f64
// CHECK: %[[N:.*]] = arith.truncf %[[S]] : f64 to f32
// CHECK: memref.store %[[N]], %[[X]][] : memref<f32>
// CHECK: arith.mulf
// CHECK: arith.divf
float compound(float x, double d) {
  x += d;
  x *= 2.0f;
  x /= 4.0f;
  return x;
}

// CHECK-LABEL: func.func @int_compound(
// CHECK: arith.shli
// CHECK: arith.remsi
// CHECK: arith.ori
// CHECK: arith.xori
// CHECK: arith.andi
int int_compound(int k) {
  k <<= 2;
  k %= 7;
  k |= 8;
  k ^= 3;
  k &= 0xff;
  return k;
}

// Post-increment yields the old value, pre-increment the new one.
// CHECK-LABEL: func.func @incdec(
// CHECK: %[[I:.*]] = memref.alloca() : memref<i32>
// CHECK: %[[A0:.*]] = memref.load %[[I]][] : memref<i32>
// CHECK: %[[A1:.*]] = arith.addi %[[A0]], %{{.*}} : i32
// CHECK: memref.store %[[A1]], %[[I]][] : memref<i32>
// CHECK: %[[B0:.*]] = memref.load %[[I]][] : memref<i32>
// CHECK: %[[B1:.*]] = arith.subi %[[B0]], %{{.*}} : i32
// CHECK: memref.store %[[B1]], %[[I]][] : memref<i32>
// CHECK: arith.addi %[[A0]], %[[B1]] : i32
int incdec(int i) {
  int a = i++;
  int b = --i;
  return a + b;
}

// Chained assignment stores the same value twice; array elements are lvalues too.
// CHECK-LABEL: func.func @chain(
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: memref.store %[[ZERO]], %arg0[%{{.*}}] : memref<?xf32>
// CHECK: memref.store %[[ZERO]], %arg0[%{{.*}}] : memref<?xf32>
// CHECK: %[[E:.*]] = memref.load %arg0[%{{.*}}] : memref<?xf32>
// CHECK: %[[E1:.*]] = arith.addf %[[E]], %{{.*}} : f32
// CHECK: memref.store %[[E1]], %arg0[%{{.*}}] : memref<?xf32>
void chain(float *a) {
  a[0] = a[1] = 0.0f;
  a[2]++;
}
