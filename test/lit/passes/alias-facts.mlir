// arts-alias-facts: each load and store a task makes through its dependencies' blocks (through
// views too) is marked with its allocation's number among the task's dependencies; two
// dependencies on one allocation share a number; a nested task numbers its own. An access not
// traced to an allocation (a buffer that is no datablock) is not marked.
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-alias-facts)' | FileCheck %s
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-alias-facts)' --debug-only=alias-facts 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// CHECK-LABEL: func.func @three_tables
// CHECK: memref.load %{{.*}}[%{{.*}}] {arts.alias_array = 0 : i64}
// CHECK: memref.load %{{.*}}[%{{.*}}] {arts.alias_array = 0 : i64}
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] {arts.alias_array = 1 : i64}
// CHECK: memref.load %{{.*}}[%{{.*}}] {arts.alias_array = 0 : i64}
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf64>
// The nested task numbers its own dependencies: b is its first.
// CHECK: memref.load %{{.*}}[%{{.*}}] {arts.alias_array = 0 : i64}
// The walk reaches the nested task first.
// DEBUG: [alias-facts] {{.*}}alias-facts.mlir:{{[0-9]+}}:5: task: 1 allocation, 1 loads and stores marked
// DEBUG: [alias-facts] {{.*}}alias-facts.mlir:{{[0-9]+}}:3: task: 2 allocations, 4 loads and stores marked
func.func @three_tables(%n: index, %i: index, %t: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %ag, %ap = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c4] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf64>>
  %bg, %bp = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c4] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf64>>
  %ga, %pa = arts.db_acquire <in> (%ag, %ap : memref<?xi64>, memref<?xmemref<?xf64>>)
      offsets[%c0] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf64>>
  %gb, %pb = arts.db_acquire <inout> (%bg, %bp : memref<?xi64>, memref<?xmemref<?xf64>>)
      offsets[%c0] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf64>>
  %ga2, %pa2 = arts.db_acquire <in> (%ag, %ap : memref<?xi64>, memref<?xmemref<?xf64>>)
      offsets[%c1] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf64>>
  arts.edt <task> <intranode> route(%r) (%pa, %pb, %pa2 : memref<?xmemref<?xf64>>, memref<?xmemref<?xf64>>, memref<?xmemref<?xf64>>) {
  ^bb0(%a: memref<?xmemref<?xf64>>, %b: memref<?xmemref<?xf64>>, %a2: memref<?xmemref<?xf64>>):
    %blk = arts.db_ref %a[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
    %x = memref.load %blk[%i] : memref<?xf64>
    %view = memref.subview %blk[1] [2] [1] : memref<?xf64> to memref<2xf64, strided<[1], offset: 1>>
    %y = memref.load %view[%c0] : memref<2xf64, strided<[1], offset: 1>>
    %bblk = arts.db_ref %b[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
    %s = arith.addf %x, %y : f64
    memref.store %s, %bblk[%i] : memref<?xf64>
    %a2blk = memref.load %a2[%c0] : memref<?xmemref<?xf64>>
    %z = memref.load %a2blk[%i] : memref<?xf64>
    memref.store %z, %t[%c0] : memref<4xf64>
    %gn, %pn = arts.db_acquire <in> (%gb, %b : memref<?xi64>, memref<?xmemref<?xf64>>)
        : memref<?xi64>, memref<?xmemref<?xf64>>
    arts.edt <task> <intranode> route(%r) (%pn : memref<?xmemref<?xf64>>) {
    ^bb0(%nb: memref<?xmemref<?xf64>>):
      %nblk = arts.db_ref %nb[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
      %w = memref.load %nblk[%i] : memref<?xf64>
      memref.store %w, %t[%c1] : memref<4xf64>
    }
  }
  return
}
