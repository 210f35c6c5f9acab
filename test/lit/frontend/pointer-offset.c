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

int main(void) {
  double a[16];
  fill(a, 1, 4);
  return (int)a[5];
}
