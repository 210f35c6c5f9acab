// RUN: carts cgeist %s -S | FileCheck %s

#include <math.h>
#include <stdlib.h>

// libm calls are math ops (f suffix: f32); fmax/fmin are arith ops; abs, labs and
// llabs are `x < 0 ? 0 - x : x` (upstream's math-to-libm has no math.absi); copysign and
// fmod are calls to libm (an `frem`, which x86 computes by calling fmod anyway, crashed
// LLVM's loop vectoriser in a max reduction); the builtins of <math.h>'s macros are
// arithmetic.

// CHECK-LABEL: func.func @float_forms(
// CHECK: math.sqrt %{{.*}} : f32
// CHECK: math.exp %{{.*}} : f32
// CHECK: math.log %{{.*}} : f32
// CHECK: math.powf %{{.*}}, %{{.*}} : f32
// CHECK: math.absf %{{.*}} : f32
// CHECK: math.tanh %{{.*}} : f32
// CHECK: math.cos %{{.*}} : f32
// CHECK: math.sin %{{.*}} : f32
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.minnumf %{{.*}}, %{{.*}} : f32
// CHECK: math.floor %{{.*}} : f32
float float_forms(float x) {
  return sqrtf(x) + expf(x) + logf(x) + powf(x, 2.0f) + fabsf(x) + tanhf(x) + cosf(x) +
         sinf(x) + fmaxf(x, 1.0f) + fminf(x, 0.0f) + floorf(x);
}

// CHECK-LABEL: func.func @double_forms(
// CHECK: math.sqrt %{{.*}} : f64
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.erf %{{.*}} : f64
// CHECK: math.atan2 %{{.*}}, %{{.*}} : f64
// CHECK: call @fmod(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// CHECK: math.ceil %{{.*}} : f64
double double_forms(double x) {
  return sqrt(x) + exp(x) + erf(x) + atan2(x, 1.0) + fmod(x, 3.0) + ceil(x);
}

// CHECK-LABEL: func.func @int_abs(
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %arg0, %[[ZERO]] : i32
// CHECK: %[[MINUS:.*]] = arith.subi %[[ZERO]], %arg0 : i32
// CHECK: arith.select %[[NEG]], %[[MINUS]], %arg0 : i32
// CHECK-LABEL: func.func @long_abs(
// CHECK: arith.cmpi slt, %arg0, %{{.*}} : i64
// CHECK-NOT: math.absi
int int_abs(int x) { return abs(x); }
long long_abs(long x) { return labs(x) + llabs(x); }

// CHECK-LABEL: func.func @sign_copy(
// CHECK: call @copysign(%arg0, %{{.*}}) : (f64, f64) -> f64
double sign_copy(double x) { return copysign(x, -1.0); }

// isnan: unordered with itself; isinf: |x| == inf; INFINITY and NAN: constants.
// CHECK-LABEL: func.func @classify(
// CHECK: arith.cmpf uno, %arg0, %arg0 : f64
// CHECK: %[[ABS:.*]] = math.absf %arg0 : f64
// CHECK: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK: arith.cmpf oeq, %[[ABS]], %[[INF]] : f64
// CHECK: arith.constant 0x7F800000 : f32
// CHECK-NOT: call @__builtin
int classify(double x) { return isnan(x) + (isinf(x) != 0) + (x < INFINITY); }

// A float argument of a double function is converted by clang first.
// CHECK-LABEL: func.func @promoted(
// CHECK: %[[D:.*]] = arith.extf %arg0 : f32 to f64
// CHECK: math.sqrt %[[D]] : f64
double promoted(float x) { return sqrt(x); }
