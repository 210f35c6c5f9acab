// RUN: carts cgeist %s -S | FileCheck %s

// Pointers and arrays are memrefs: one `?` dimension per pointer level, the static
// shape of fixed arrays; char pointers stay !llvm.ptr (strings, argv).

// CHECK-LABEL: func.func @signature(
// CHECK-SAME: %arg0: memref<?xf32>, %arg1: memref<?xmemref<?xf32>>, %arg2: memref<?xmemref<?xmemref<?xf32>>>, %arg3: memref<?x8xf64>, %arg4: memref<?xi32>, %arg5: !llvm.ptr)
void signature(float *a, float **b, float ***c, double m[4][8], int v[], const char *s) {}

// Each subscript level of a pointer table is one memref.load; the last one reads
// the element.
// CHECK-LABEL: func.func @load3(
// CHECK: %[[P:.*]] = memref.load %arg0[%{{.*}}] : memref<?xmemref<?xmemref<?xf32>>>
// CHECK: %[[R:.*]] = memref.load %[[P]][%{{.*}}] : memref<?xmemref<?xf32>>
// CHECK: %[[V:.*]] = memref.load %[[R]][%{{.*}}] : memref<?xf32>
// CHECK: return %[[V]] : f32
float load3(float ***c, int i, int j, int k) { return c[i][j][k]; }

// A fixed array (or a parameter declared as one) is indexed in one access.
// CHECK-LABEL: func.func @fixed(
// CHECK: %[[I:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: %[[J:.*]] = arith.index_cast %arg2 : i32 to index
// CHECK: memref.load %arg0[%[[I]], %[[J]]] : memref<?x8xf64>
double fixed(double m[4][8], int i, int j) { return m[i][j]; }

// `*p` is `p[0]`, `*(p + k)` is `p[k]`.
// CHECK-LABEL: func.func @deref(
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.store %{{.*}}, %arg0[%[[C0]]] : memref<?xi32>
// CHECK: %[[K:.*]] = arith.index_cast %arg1 : i32 to index
// CHECK: memref.load %arg0[%[[K]]] : memref<?xi32>
int deref(int *p, int k) {
  *p = 1;
  return *(p + k);
}

// A local array passed to a pointer parameter is cast to the dynamic shape.
// CHECK-LABEL: func.func @pass_local(
// CHECK: %[[A:.*]] = memref.alloca() : memref<16xi32>
// CHECK: %[[CAST:.*]] = memref.cast %[[A]] : memref<16xi32> to memref<?xi32>
// CHECK: call @deref(%[[CAST]], %{{.*}}) : (memref<?xi32>, i32) -> i32
int pass_local(void) {
  int a[16];
  return deref(a, 3);
}

// A memref cannot hold an !llvm.ptr: an array of strings, or a `char *` variable assigned
// again, holds each address as an i64 (ptrtoint on the way in, inttoptr on the way out).
// CHECK-LABEL: func.func @labels(
// CHECK: %[[T:.*]] = memref.alloca() : memref<2xi64>
// CHECK: %[[S:.*]] = memref.alloca() : memref<i64>
// CHECK: %[[A:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i64
// CHECK: memref.store %[[A]], %[[T]][%{{.*}}] : memref<2xi64>
// CHECK: %[[L:.*]] = memref.load %[[T]][%{{.*}}] : memref<2xi64>
// CHECK: %[[P:.*]] = llvm.inttoptr %[[L]] : i64 to !llvm.ptr
// CHECK: llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK: memref.store %{{.*}}, %[[S]][] : memref<i64>
const char *labels(int k) {
  const char *t[2] = {"a", "b"};
  const char *s = t[k];
  if (k > 1) s = "c";
  return s;
}
