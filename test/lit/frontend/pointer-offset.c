// RUN: carts cgeist %s -S | FileCheck %s
// RUN: not carts cgeist %s -S -DAS_VALUE 2>&1 | FileCheck %s --check-prefix=VALUE

// A pointer into an array (`double *row = p + i * m`, never reassigned) is the array and
// an element index: `row[k]`, `*(row + k)` and `*(p + i * m + k)` index the array itself.

// CHECK-LABEL: func.func private @fill
// CHECK-SAME: (%[[P:.*]]: memref<?xf64>, %{{.*}}: i32, %{{.*}}: i32)
// CHECK: %[[OFF:.*]] = arith.addi %c0, %[[IM:.*]] : index
// CHECK: scf.for %[[K:.*]] =
// CHECK: %[[AT:.*]] = arith.addi %[[OFF]], %[[K]] : index
// CHECK: memref.store %{{.*}}, %[[P]][%[[AT]]] : memref<?xf64>
// CHECK: %[[AT1:.*]] = arith.addi %[[OFF]], %c1 : index
// CHECK: %[[AT2:.*]] = arith.addi %[[OFF]], %c2 : index
// CHECK: memref.load %[[P]][%[[AT2]]] : memref<?xf64>
// CHECK: memref.store %{{.*}}, %[[P]][%[[AT1]]] : memref<?xf64>

static void fill(double *p, int i, int m) {
  double *row = p + i * m;
  for (int k = 0; k < m; k++)
    row[k] = k;
  *(row + 1) = *(row + 2) + 1.0;
#ifdef AS_VALUE
  // VALUE: pointer-offset.c:[[@LINE+1]]:8: error: unsupported C construct: pointer 'row' into the middle of an array used as a value
  fill(row, 0, 1);
#endif
}

// A pointer the function moves (`*p++ = ...`, `p != end`) is its array and an index kept in
// a memref<index> slot: moving it changes the index, comparing it compares indices.
// CHECK-LABEL: func.func private @walk
// CHECK-SAME: (%[[A:.*]]: memref<?xi64>, %{{.*}}: i32)
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<index>
// CHECK: memref.store %c0, %[[SLOT]][] : memref<index>
// CHECK: scf.while
// CHECK: %[[AT:.*]] = memref.load %[[SLOT]][] : memref<index>
// CHECK: arith.cmpi ne, %[[AT]], %{{.*}} : index
// CHECK: %[[OLD:.*]] = memref.load %[[SLOT]][] : memref<index>
// CHECK: %[[NEW:.*]] = arith.addi %[[OLD]], %c1 : index
// CHECK-NEXT: memref.store %[[NEW]], %[[SLOT]][] : memref<index>
// CHECK: %[[IDX:.*]] = arith.addi %[[OLD]], %{{.*}} : index
// CHECK: memref.store %{{.*}}, %[[A]][%[[IDX]]] : memref<?xi64>

static void walk(long *a, int n) {
  long *p = a;
  long *end = a + n;
  while (p != end)
    *p++ = 7;
}

int main(void) {
  double a[16];
  long b[8];
  fill(a, 1, 4);
  walk(b, 8);
  return (int)a[5] + (int)b[3];
}
