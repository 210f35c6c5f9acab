// RUN: carts cgeist %s -S --print-debug-info | FileCheck %s
// RUN: carts cgeist %s -S | FileCheck %s --check-prefix=NOLOC

// With --print-debug-info every operation carries the file:line:col of its C source.

// CHECK-LABEL: func.func @axpy(
// CHECK: scf.for {{.*}} {
// CHECK:   memref.load {{.*}} loc(#[[LOAD:loc[0-9]*]])
// CHECK:   arith.mulf {{.*}} loc(#[[MUL:loc[0-9]*]])
// CHECK:   memref.store {{.*}} loc(#[[STORE:loc[0-9]*]])
// CHECK: } loc(#[[FOR:loc[0-9]*]])
// CHECK: return loc(#[[RET:loc[0-9]*]])
void axpy(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}
// Expressions are located at their first token, the implicit return at the closing brace.
// CHECK-DAG: #[[FOR]] = loc("{{.*}}debug-info.c":14:3)
// CHECK-DAG: #[[LOAD]] = loc("{{.*}}debug-info.c":15:16)
// CHECK-DAG: #[[MUL]] = loc("{{.*}}debug-info.c":15:12)
// CHECK-DAG: #[[STORE]] = loc("{{.*}}debug-info.c":15:5)
// CHECK-DAG: #[[RET]] = loc("{{.*}}debug-info.c":16:1)

// NOLOC-NOT: loc(
