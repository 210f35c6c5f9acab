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
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?x3xf64>
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
