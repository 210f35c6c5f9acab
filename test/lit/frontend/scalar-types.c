// RUN: carts cgeist %s -S | FileCheck %s

// Each C scalar type maps to one MLIR type; unsigned types are signless integers
// whose operations are unsigned; static functions are private.

// _Bool is a byte, as in the C ABI.
// CHECK-LABEL: func.func @widths(
// CHECK-SAME: %{{.*}}: i8, %{{.*}}: i16, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: f64, %{{.*}}: i8) -> f64
// CHECK: arith.extsi %arg0 : i8 to i32
// CHECK: arith.uitofp %{{.*}} : i64 to f32
// CHECK: arith.extui %arg8 : i8 to i32
double widths(char c, short s, int i, long l, long long ll, unsigned long ul, float f,
              double d, _Bool b) {
  return c + s + i + l + ll + ul + f + d + b;
}

// CHECK-LABEL: func.func private @unsigned_ops(
// CHECK-SAME: %arg0: i32, %arg1: i32) -> i32
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK: arith.shrui
// CHECK: arith.cmpi ult
static unsigned unsigned_ops(unsigned a, unsigned b) {
  return (a / b + a % b + (a >> 3)) * (a < b);
}

// CHECK-LABEL: func.func private @signed_ops(
// CHECK: arith.divsi
// CHECK: arith.remsi
// CHECK: arith.shrsi
// CHECK: arith.cmpi slt
static int signed_ops(int a, int b) {
  return (a / b + a % b + (a >> 3)) * (a < b);
}

// Usual arithmetic conversions come from clang: int -> float is sitofp, unsigned ->
// float uitofp, float -> double extf, double -> int fptosi.
// CHECK-LABEL: func.func private @conversions(
// CHECK: arith.sitofp %arg0 : i32 to f32
// CHECK: arith.uitofp %arg2 : i32 to f32
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: %[[L:.*]] = arith.extsi %arg0 : i32 to i64
// CHECK: arith.trunci %[[L]] : i64 to i16
// CHECK: arith.fptosi %{{.*}} : f64 to i32
static int conversions(int i, float f, unsigned u) {
  double d = (i + f) + u;
  long l = i;
  short s = (short)l;
  return (int)d + s;
}

int main(void) { return signed_ops(7, 2) + (int)unsigned_ops(7u, 2u) + conversions(1, 2.0f, 3u); }
