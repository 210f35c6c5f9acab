// RUN: carts cgeist %s -S | FileCheck %s

// A struct whose fields all have one arithmetic type is kept as that type's array:
// `struct vec { double x, y, z; }` is a double[3], a pointer to it a memref<?x3xf64>, and
// `a[i].y` / `p->y` index the field; a struct assignment copies the fields.

// CHECK-LABEL: func.func private @scale
// CHECK-SAME: (%[[V:.*]]: memref<?x3xf64>, %{{.*}}: f64)
// CHECK: memref.load %[[V]][%c0, %c1] : memref<?x3xf64>
// CHECK-LABEL: func.func @main
// CHECK: %[[W:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[U:.*]] = memref.alloca() : memref<3xf64>
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x3xf64>
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}, %c2{{.*}}] : memref<?x3xf64>
// `w = u`: three copies.
// CHECK: %[[X0:.*]] = memref.load %[[U]][%c0{{.*}}] : memref<3xf64>
// CHECK-NEXT: memref.store %[[X0]], %[[W]][%c0{{.*}}] : memref<3xf64>
// CHECK: memref.load %[[U]][%c1{{.*}}] : memref<3xf64>
// CHECK: memref.load %[[U]][%c2{{.*}}] : memref<3xf64>

#include <stdlib.h>

struct vec {
  double x, y, z;
};

static void scale(struct vec *p, double f) { p->y = p->y * f; }

int main(void) {
  struct vec w, u = {1.0, 2.0, 3.0};
  struct vec *a = (struct vec *)malloc(4 * sizeof(struct vec));
  for (int i = 0; i < 4; i++)
    a[i].z = i;
  w = u;
  scale(a, 2.0);
  double r = w.x + a[3].z;
  free(a);
  return (int)r;
}

// Fields of different types: one i64 slot per field, holding an integer widened (and
// truncated back on a load) or a float's bits (bitcast); C's sizeof and layout are kept.
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME: %arg0: memref<?x3xi64>
// CHECK: %[[D:.*]] = memref.load %arg0[%{{.*}}, %c0{{.*}}] : memref<?x3xi64>
// CHECK: %[[X:.*]] = arith.bitcast %[[D]] : i64 to f64
// CHECK: %[[K:.*]] = memref.load %arg0[%{{.*}}, %c1{{.*}}] : memref<?x3xi64>
// CHECK: %[[N:.*]] = arith.trunci %[[K]] : i64 to i32
// CHECK: %[[F:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.bitcast %[[F]] : i32 to f32
// CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[WIDE:.*]] = arith.extui %[[BITS]] : i32 to i64
// CHECK: memref.store %[[WIDE]], %arg0[%{{.*}}, %c2{{.*}}] : memref<?x3xi64>
struct rec { double x; int n; float w; };
double mixed(struct rec *r, int i) {
  double v = r[i].x + r[i].n;
  r[i].w = r[i].w * 2.0f;
  return v;
}
