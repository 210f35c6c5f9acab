// RUN: carts cgeist %s -S | FileCheck %s

#include <math.h>
#include <stdlib.h>

// libm calls are math ops (f suffix: f32); fmax/fmin/fmod are arith ops; abs is
// math.absi.

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
// CHECK: arith.remf %{{.*}}, %{{.*}} : f64
// CHECK: math.ceil %{{.*}} : f64
double double_forms(double x) {
  return sqrt(x) + exp(x) + erf(x) + atan2(x, 1.0) + fmod(x, 3.0) + ceil(x);
}

// CHECK-LABEL: func.func @int_abs(
// CHECK: math.absi %arg0 : i32
int int_abs(int x) { return abs(x); }

// A float argument of a double function is converted by clang first.
// CHECK-LABEL: func.func @promoted(
// CHECK: %[[D:.*]] = arith.extf %arg0 : f32 to f64
// CHECK: math.sqrt %[[D]] : f64
double promoted(float x) { return sqrt(x); }
