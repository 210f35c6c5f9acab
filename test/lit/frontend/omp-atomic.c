// RUN: carts cgeist %s -S -fopenmp | FileCheck %s
// RUN: not carts cgeist %s -S -fopenmp -DFLOAT_MUL 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not carts cgeist %s -S -fopenmp -DSHAPE 2>&1 | FileCheck %s --check-prefix=SHAPE

// `#pragma omp atomic` makes the access to the shared object one read-modify-write with
// indices: memref.generic_atomic_rmw for integers (its block computes the new value from
// the current one; the other operand is evaluated before), memref.atomic_rmw for floats
// (addf; a read adds -0.0) and for every swap (assign). The op yields the old value; a
// capture recomputes the new one after it when the statement keeps that.

// CHECK-LABEL: func.func @main
// CHECK: omp.loop_nest
// `count += i`
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: memref.generic_atomic_rmw %[[COUNT:[a-z0-9_]+]][] : memref<i32> {
// CHECK-NEXT: ^bb0(%[[CUR:.*]]: i32):
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[CUR]], %[[I]] : i32
// CHECK-NEXT: memref.atomic_yield %[[NEW]] : i32
// `sum -= 0.5`: an add of the negated operand
// CHECK: %[[NEG:.*]] = arith.negf
// CHECK-NEXT: memref.atomic_rmw addf %[[NEG]], %{{.*}}[] : (f64, memref<f64>) -> f64
// `hist[i % 4]++`: an element
// CHECK: %[[K:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT: memref.generic_atomic_rmw %{{.*}}[%[[K]]] : memref<4xi32> {
// `t = ticket++`: the old value is stored
// CHECK: %[[OLD:.*]] = memref.generic_atomic_rmw %[[TICKET:[a-z0-9_]+]][] : memref<i32> {
// CHECK: memref.store %[[OLD]], %[[T:[a-z0-9_]+]][] : memref<i32>
// `seen = count` (read): yields the current value unchanged
// CHECK: %[[READ:.*]] = memref.generic_atomic_rmw %[[COUNT]][] : memref<i32> {
// CHECK-NEXT: ^bb0(%[[C2:.*]]: i32):
// CHECK-NEXT: memref.atomic_yield %[[C2]] : i32
// CHECK: memref.store %[[READ]]
// `ticket = t + 1` (write): a swap
// CHECK: memref.atomic_rmw assign %{{.*}}, %[[TICKET]][] : (i32, memref<i32>) -> i32
// `v = x *= 3` (capture of the new value): recomputed from the old one
// CHECK: %[[O3:.*]] = memref.generic_atomic_rmw %[[COUNT]][] : memref<i32> {
// CHECK: %[[N3:.*]] = arith.muli %[[O3]], %{{.*}} : i32
// CHECK-NEXT: memref.store %[[N3]]
// `{ v = x; x = x - 2; }` (capture block, old value)
// CHECK: %[[O4:.*]] = memref.generic_atomic_rmw %[[COUNT]][] : memref<i32> {
// CHECK: arith.subi
// CHECK: memref.store %[[O4]]

int main(void) {
  int count = 0, ticket = 0, seen = 0, v = 0;
  double sum = 0.0, f = 1.0;
  int hist[4] = {0, 0, 0, 0};
#pragma omp parallel for
  for (int i = 0; i < 100; i++) {
#pragma omp atomic
    count += i;
#pragma omp atomic update
    sum -= 0.5;
#pragma omp atomic
    hist[i % 4]++;
    int t;
#pragma omp atomic capture
    t = ticket++;
#pragma omp atomic read
    seen = count;
#pragma omp atomic write
    ticket = t + 1;
#pragma omp atomic capture
    v = count *= 3;
#pragma omp atomic capture
    {
      v = count;
      count = count - 2;
    }
#ifdef FLOAT_MUL
    // FLOAT: omp-atomic.c:[[@LINE+1]]:1: error: unsupported C construct: omp atomic on a floating-point object supports 'x += e', 'x -= e', 'x++' and 'x--'
#pragma omp atomic
    f *= 2.0;
#endif
#ifdef SHAPE
    // SHAPE: omp-atomic.c:[[@LINE+1]]:1: error: unsupported C construct: this statement under omp atomic (expected 'x++', 'x--', 'x op= expr' or 'x = x op expr')
#pragma omp atomic
    count = v;
#endif
  }
  return count + (int)sum + hist[0] + seen + v + (int)f;
}

// compare capture: the compare's one read-modify-write; v gets the value it replaced
// (read first) or the value it leaves (read after).
// CHECK-LABEL: func.func @compare_capture(
// CHECK: %[[OLD:.*]] = memref.generic_atomic_rmw %arg0[%{{.*}}] : memref<?xi32> {
// CHECK: arith.cmpi slt
// CHECK: arith.select
// CHECK: memref.store %[[OLD]], %arg1[%{{.*}}] : memref<?xi32>
// CHECK: %[[OLD2:.*]] = memref.generic_atomic_rmw %arg0[%{{.*}}] : memref<?xi32> {
// CHECK: memref.atomic_yield
// CHECK: %[[HOLDS:.*]] = arith.cmpi eq, %[[OLD2]]
// CHECK: %[[NEW:.*]] = arith.select %[[HOLDS]], %{{.*}}, %[[OLD2]] : i32
// CHECK: memref.store %[[NEW]], %arg1[%{{.*}}] : memref<?xi32>
void compare_capture(int *x, int *v, int e) {
#pragma omp atomic compare capture
  {
    v[0] = x[0];
    if (e < x[0]) { x[0] = e; }
  }
#pragma omp atomic compare capture
  {
    if (x[0] == e) { x[0] = 0; }
    v[0] = x[0];
  }
}
