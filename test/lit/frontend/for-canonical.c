// RUN: carts cgeist %s -S | FileCheck %s

// Loops of canonical shape are scf.for over index; the induction variable is the C
// loop variable (cast to its C type where it is used as a value).

// CHECK-LABEL: func.func @up(
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK:   %[[IV:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:   %[[F:.*]] = arith.sitofp %[[IV]] : i32 to f32
// CHECK:   memref.store %[[F]], %arg0[%[[I]]] : memref<?xf32>
void up(float *a, int n) {
  for (int i = 0; i < n; i++)
    a[i] = i;
}

// `<=` adds one to the bound; `+= 2` is the step.
// CHECK-LABEL: func.func @inclusive_step(
// CHECK: %[[B:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[UB:.*]] = arith.addi %[[B]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step %[[C2]]
void inclusive_step(float *a, int n) {
  for (int i = 1; i <= n; i += 2)
    a[i] = 0.0f;
}

// A decreasing loop iterates over its trip count: i = start - k * step.
// CHECK-LABEL: func.func @down(
// CHECK: %[[START:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[LB:.*]] = arith.index_cast %[[START]] : i32 to index
// CHECK: %[[SPAN:.*]] = arith.subi %[[LB]], %{{.*}} : index
// CHECK: %[[TRIPS:.*]] = arith.ceildivsi %{{.*}}, %{{.*}} : index
// CHECK: %[[T:.*]] = arith.maxsi %[[TRIPS]], %{{.*}} : index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[T]] step %{{.*}} {
// CHECK:   %[[OFF:.*]] = arith.muli %[[K]], %{{.*}} : index
// CHECK:   %[[I:.*]] = arith.subi %[[LB]], %[[OFF]] : index
// CHECK:   memref.store %{{.*}}, %arg0[%[[I]]] : memref<?xf32>
void down(float *a, int n) {
  for (int i = n - 1; i >= 0; i--)
    a[i] = 1.0f;
}

// A variable declared outside the loop (polybench style) is an induction variable
// inside it; when it is read after the loop it receives its final value.
// CHECK-LABEL: func.func @outer_var(
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<i32>
// CHECK: scf.for
// CHECK: %[[FINAL:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[FI:.*]] = arith.index_cast %[[FINAL]] : index to i32
// CHECK: memref.store %[[FI]], %[[SLOT]][] : memref<i32>
// CHECK: memref.load %[[SLOT]][] : memref<i32>
int outer_var(float *a, int n) {
  int i;
  for (i = 0; i < n; i += 3)
    a[i] = 2.0f;
  return i;
}

// Loop variables reassigned by every later loop need no final value.
// CHECK-LABEL: func.func @reused(
// CHECK: scf.for
// CHECK-NOT: arith.ceildivsi
// CHECK: scf.for
// CHECK-NOT: arith.ceildivsi
// CHECK: return
void reused(float *a, int n) {
  int i;
  for (i = 0; i < n; i++)
    a[i] = 0.0f;
  for (i = 0; i < n; i++)
    a[i] += 1.0f;
}
