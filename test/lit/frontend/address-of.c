// RUN: carts cgeist %s -S | FileCheck %s
// RUN: not carts cgeist %s -S -DELEMENT 2>&1 | FileCheck %s --check-prefix=ELEMENT

// `&x` of a scalar variable (polybench's `init_array(n, &alpha, ...)`): the variable stays
// in memory, and its one-element slot is passed as the `T *` it becomes, memref<?xT>.

// CHECK-LABEL: func.func @main
// CHECK: %[[ALPHA:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[ONE:.*]] = memref.reinterpret_cast %[[ALPHA]] to offset: [0], sizes: [1], strides: [1] : memref<f64> to memref<1xf64>
// CHECK-NEXT: %[[PTR:.*]] = memref.cast %[[ONE]] : memref<1xf64> to memref<?xf64>
// CHECK-NEXT: call @init(%[[PTR]]) : (memref<?xf64>) -> ()
// CHECK: memref.load %[[ALPHA]][] : memref<f64>

static void init(double *alpha) { *alpha = 1.5; }

int main(void) {
  double alpha = 0.0;
  init(&alpha);
#ifdef ELEMENT
  double a[4];
  // ELEMENT: address-of.c:[[@LINE+1]]:8: error: unsupported C construct: address-of operator '&' (supported on a scalar variable
  init(&a[1]);
#endif
  return (int)alpha;
}
