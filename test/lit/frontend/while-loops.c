// RUN: carts cgeist %s -S | FileCheck %s

// Loops that are not canonical become scf.while without loop-carried values: the
// variables they change live in allocas.

// CHECK-LABEL: func.func @collatz(
// CHECK: %[[V:.*]] = memref.alloca() : memref<i64>
// CHECK: scf.while : () -> () {
// CHECK:   %[[X:.*]] = memref.load %[[V]][] : memref<i64>
// CHECK:   %[[C:.*]] = arith.cmpi ne, %[[X]], %{{.*}} : i64
// CHECK:   scf.condition(%[[C]])
// CHECK: } do {
// CHECK:   scf.if
// CHECK:   scf.yield
// CHECK: }
int collatz(long v) {
  int steps = 0;
  while (v != 1) {
    if (v % 2) v = 3 * v + 1; else v = v / 2;
    steps++;
  }
  return steps;
}

// A for loop whose variable changes in the body: init, then while (cond) { body; inc }.
// CHECK-LABEL: func.func @skipping(
// CHECK: scf.while
// CHECK:   arith.cmpi slt
// CHECK:   scf.condition
// CHECK: } do {
// CHECK:   arith.addi
// CHECK:   scf.yield
int skipping(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 4 == 0) i++;
    s += i;
  }
  return s;
}

// do/while: the body and the test are both in the `before` region.
// CHECK-LABEL: func.func @dowhile(
// CHECK: scf.while : () -> () {
// CHECK:   memref.store
// CHECK:   %[[T:.*]] = arith.cmpi slt
// CHECK:   scf.condition(%[[T]])
// CHECK: } do {
// CHECK-NEXT: scf.yield
int dowhile(int n) {
  int j = 0;
  do {
    j += 3;
  } while (j < n);
  return j;
}

// `do { ... } while (0)` (the macro idiom) runs its body once, without a loop.
// CHECK-LABEL: func.func @once(
// CHECK-NOT: scf.while
// CHECK: return
int once(int x) {
  do {
    x = x * 2;
  } while (0);
  return x;
}
