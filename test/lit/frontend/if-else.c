// RUN: carts cgeist %s -S | FileCheck %s

// if/else is scf.if; conditions are i1 straight from the comparison.

// CHECK-LABEL: func.func @sign(
// CHECK: %[[LT:.*]] = arith.cmpi slt, %arg0, %{{.*}} : i32
// CHECK: scf.if %[[LT]] {
// CHECK: } else {
// CHECK:   %[[GT:.*]] = arith.cmpi sgt, %arg0, %{{.*}} : i32
// CHECK:   scf.if %[[GT]] {
// CHECK:   }
// CHECK: }
int sign(int x) {
  int s = 0;
  if (x < 0)
    s = -1;
  else if (x > 0)
    s = 1;
  return s;
}

// A ternary on side-effect-free operands is arith.select; otherwise scf.if with a
// result (only one arm is evaluated).
// CHECK-LABEL: func.func @ternary(
// CHECK: %[[C:.*]] = arith.cmpf ogt, %arg0, %arg1 : f32
// CHECK: arith.select %[[C]], %arg0, %arg1 : f32
// CHECK: %{{.*}} = scf.if %{{.*}} -> (f32) {
// CHECK:   memref.load %arg2
// CHECK:   scf.yield %{{.*}} : f32
// CHECK: } else {
// CHECK:   scf.yield %{{.*}} : f32
// CHECK: }
float ternary(float a, float b, float *p, int k) {
  float m = a > b ? a : b;
  return m + (k > 0 ? p[k] : 0.0f);
}

// A condition on a float or a pointer compares with zero / null.
// CHECK-LABEL: func.func @truthy(
// CHECK: arith.cmpf une, %arg0, %{{.*}} : f64
// CHECK: memref.extract_aligned_pointer_as_index %arg1 : memref<?xi32> -> index
// CHECK: arith.cmpi ne
int truthy(double d, int *p) {
  int r = 0;
  if (d)
    r += 1;
  if (p)
    r += 2;
  return r;
}
