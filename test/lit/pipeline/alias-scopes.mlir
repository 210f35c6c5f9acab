// The alias facts on a lowered task: 3mm's first product (E = A * B) reads A and B and
// writes E, three allocations. Its task function gets a domain and a scope per allocation;
// every load and store of a block carries its allocation's scope and the other two as
// noalias, so LLVM may keep E[i][j] in a register across the k loop.
// RUN: carts cgeist %examples/polybench/3mm/3mm.c -DMINI_DATASET -I %examples/include -fopenmp -S -o %t.mlir
// RUN: env threads=1 carts run %t.mlir --arts-to-llvm | FileCheck %s
// RUN: env threads=1 carts run %t.mlir --pre-lowering --debug-only=alias-facts 2>&1 >/dev/null | FileCheck %s --check-prefix=FACTS

// FACTS-COUNT-3: [alias-facts] {{.*}}:{{[0-9]+}}:{{[0-9]+}}: task: 3 allocations, {{[1-9][0-9]*}} loads and stores marked
// CHECK-DAG: #[[DOM:[a-z_0-9]+]] = #llvm.alias_scope_domain<id = distinct[{{[0-9]+}}]<>, description = "__arts_edt_0">
// CHECK-DAG: #[[E:[a-z_0-9]+]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOM]], description = "__arts_edt_0 allocation 0">
// CHECK-DAG: #[[A:[a-z_0-9]+]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOM]], description = "__arts_edt_0 allocation 1">
// CHECK-DAG: #[[B:[a-z_0-9]+]] = #llvm.alias_scope<id = distinct[{{[0-9]+}}]<>, domain = #[[DOM]], description = "__arts_edt_0 allocation 2">
// CHECK-LABEL: llvm.func @__arts_edt_0(
// CHECK: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[E]]], noalias_scopes = [#[[A]], #[[B]]]} : f64, !llvm.ptr
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[A]]], noalias_scopes = [#[[E]], #[[B]]]} : !llvm.ptr -> f64
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[B]]], noalias_scopes = [#[[E]], #[[A]]]} : !llvm.ptr -> f64
// CHECK: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[E]]], noalias_scopes = [#[[A]], #[[B]]]} : f64, !llvm.ptr
// CHECK-LABEL: llvm.func @__arts_edt_1(
