// RUN: carts cgeist %s -S | FileCheck %s

// A local that is never assigned after its initialisation is an SSA value; others
// live in a rank-0 memref.alloca at the top of the function (never inside a loop).

// CHECK-LABEL: func.func @locals(
// CHECK-DAG: %[[ACC:.*]] = memref.alloca() : memref<i32>
// CHECK-DAG: %[[ARR:.*]] = memref.alloca() : memref<8xf32>
// CHECK-DAG: %[[TMP:.*]] = memref.alloca() : memref<f32>
// CHECK: %[[TWICE:.*]] = arith.muli %arg0, %{{.*}} : i32
// CHECK: memref.store %[[TWICE]], %[[ACC]][] : memref<i32>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK:   memref.store %{{.*}}, %[[TMP]][] : memref<f32>
// CHECK:   memref.store %{{.*}}, %[[ARR]][%{{.*}}] : memref<8xf32>
// CHECK: memref.load %[[ACC]][] : memref<i32>
int locals(int n) {
  const int twice = n * 2;
  int acc = twice;
  float arr[8];
  for (int i = 0; i < 8; i++) {
    float tmp;
    tmp = i * 0.5f;
    arr[i] = tmp;
    acc += i;
  }
  return acc + (int)arr[3];
}

// A parameter that is assigned gets a slot initialised from the argument.
// CHECK-LABEL: func.func @param_slot(
// CHECK: %[[S:.*]] = memref.alloca() : memref<i32>
// CHECK: memref.store %arg0, %[[S]][] : memref<i32>
int param_slot(int x) {
  x = x + 1;
  return x;
}

// Local arrays with initialisers: a partial list zero-fills first.
// CHECK-LABEL: func.func @init_arrays(
// CHECK: %[[W:.*]] = memref.alloca() : memref<2x3xi32>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: scf.for %[[I:.*]] =
// CHECK:   scf.for %[[J:.*]] =
// CHECK:     memref.store %[[ZERO]], %[[W]][%[[I]], %[[J]]] : memref<2x3xi32>
// CHECK: %[[SIX:.*]] = arith.constant 6 : i32
// CHECK-NEXT: memref.store %[[SIX]], %[[W]][%c1, %c2] : memref<2x3xi32>
int init_arrays(void) {
  int w[2][3] = {{1, 2}, {4, 5, 6}};
  return w[1][2];
}

// A variable-length array is an alloca of the extents its declaration computes, where
// the declaration is (outermost extent first; a fixed one stays in the type); a parameter
// declared with run-time extents takes a memref of dynamic shape; sizeof of one is its
// extents times its element's size.
// CHECK-LABEL: func.func @vla(
// CHECK-SAME: %arg0: i32, %arg1: memref<?x?xf64>)
// CHECK: %[[N:.*]] = arith.index_cast %arg0 : i32 to index
// CHECK: %[[A:.*]] = memref.alloca(%[[N]]) : memref<?x3xf32>
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}, %{{.*}}] : memref<?x3xf32>
// CHECK: %[[D:.*]] = memref.dim %[[A]], %c0
// CHECK: arith.muli %{{.*}}, %[[D]] : index
long vla(int n, double p[n][n]) {
  float a[n][3];
  a[n - 1][2] = p[0][0];
  return sizeof(a);
}
