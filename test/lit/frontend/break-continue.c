// RUN: carts cgeist %s -S | FileCheck %s

// break and continue stay structured: an i8 flag in an alloca, the rest of the body
// guarded by scf.if on it; a loop with a break is an scf.while that tests the flag.

// CHECK-LABEL: func.func @first_negative(
// CHECK: %[[BRK:.*]] = memref.alloca() : memref<i8>
// CHECK: memref.store %{{.*}}, %[[BRK]][] : memref<i8>
// CHECK: scf.while : () -> () {
// CHECK:   %[[B:.*]] = memref.load %[[BRK]][] : memref<i8>
// CHECK:   %[[GOING:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : i8
// CHECK:   %[[T:.*]] = arith.cmpi slt
// CHECK:   %[[GO:.*]] = arith.andi %[[GOING]], %[[T]] : i1
// CHECK:   scf.condition(%[[GO]])
// CHECK: } do {
// CHECK:   scf.if %{{.*}} {
// CHECK:     %[[ONE:.*]] = arith.constant 1 : i8
// CHECK:     memref.store %[[ONE]], %[[BRK]][] : memref<i8>
// CHECK:   }
// The increment runs only when the body did not break.
// CHECK:   %[[B2:.*]] = memref.load %[[BRK]][] : memref<i8>
// CHECK:   %[[NB:.*]] = arith.cmpi eq, %[[B2]], %{{.*}} : i8
// CHECK:   scf.if %[[NB]] {
// CHECK:     arith.addi
// CHECK:   }
int first_negative(int *a, int n) {
  int i = 0;
  for (i = 0; i < n; i++) {
    if (a[i] < 0)
      break;
  }
  return i;
}

// `if (c) continue;` at the top of a loop body needs no flag: the rest of the body
// is the else branch, and the loop stays an scf.for.
// CHECK-LABEL: func.func @skip_multiples(
// CHECK-NOT: memref<i8>
// CHECK: scf.for
// CHECK:   %[[M:.*]] = arith.cmpi eq
// CHECK:   scf.if %[[M]] {
// CHECK-NEXT: } else {
// CHECK:     arith.addi
int skip_multiples(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 0)
      continue;
    s += i;
  }
  return s;
}

// A continue deeper inside sets a flag; later statements of the body test it.
// CHECK-LABEL: func.func @nested_continue(
// CHECK: %[[CONT:.*]] = memref.alloca() : memref<i8>
// CHECK: scf.for
// CHECK:   memref.store %{{.*}}, %[[CONT]][] : memref<i8>
// CHECK:   scf.if
// CHECK:     scf.if
// CHECK:       memref.store %{{.*}}, %[[CONT]][] : memref<i8>
// CHECK:   %[[C:.*]] = memref.load %[[CONT]][] : memref<i8>
// CHECK:   %[[NOT:.*]] = arith.cmpi eq, %[[C]], %{{.*}} : i8
// CHECK:   scf.if %[[NOT]] {
int nested_continue(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i > 2) {
      if (i % 2)
        continue;
      s += 100;
    }
    s += i;
  }
  return s;
}

// while (1) with a break: the test is the flag alone.
// CHECK-LABEL: func.func @spin(
// CHECK: scf.while
// CHECK:   %[[B:.*]] = memref.load
// CHECK:   %[[R:.*]] = arith.cmpi eq, %[[B]]
// CHECK:   scf.condition(%[[R]])
int spin(int n) {
  int w = 0;
  while (1) {
    w++;
    if (w == n)
      break;
  }
  return w;
}
