// A parallel part that is not a single loop (here: per-thread code, then a work-sharing loop
// with a reduction) becomes one task per worker: the worker index replaces
// omp_get_thread_num(), the loop runs the worker's static share into a private accumulator,
// each worker leaves its partial in its own slot, and after the epoch the partials are
// combined in worker order into the shared accumulator.
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-for-lowering,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: func.func @main
// CHECK: %[[SG:.*]], %[[SP:.*]] = arts.db_alloc <inout> <write> <coarse> {{.*}} elementSizes[] : memref<?xi64>, memref<?xmemref<i32>>
// CHECK: %[[SUM:.*]] = arts.db_ref %[[SP]][%{{.*}}] : memref<?xmemref<i32>> -> memref<i32>
// One slot per worker for the partials.
// CHECK: %[[PG:.*]], %[[PP:.*]] = arts.db_alloc <inout> <write> <coarse> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%[[C2:.*]]] : memref<?xi64>, memref<?xmemref<?xi32>>
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for %[[W:.*]] = %{{.*}} to %[[C2]] step
// CHECK: %{{.*}}, %[[PV:.*]] = arts.db_acquire <concurrent> (%[[PG]], %[[PP]] : memref<?xi64>, memref<?xmemref<?xi32>>)
// CHECK: arts.edt <task> <intranode>
// CHECK-NEXT: ^bb0({{.*}}, %[[PARTS:.*]]: memref<?xmemref<?xi32>>):
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[W]]] : memref<8xi32>
// CHECK: %[[LO:.*]] = arith.muli %[[W]], %[[C50:.*]] : index
// CHECK: %[[PRIV:.*]] = memref.alloca() : memref<i32>
// CHECK-NEXT: memref.store %{{.*}}, %[[PRIV]][] : memref<i32>
// CHECK-NEXT: scf.for %{{.*}} = %[[LO]] to %{{.*}} step
// CHECK-NOT: %[[SUM]][]
// CHECK: memref.store %{{.*}}, %[[PRIV]][] : memref<i32>
// CHECK: %[[SLOTS:.*]] = arts.db_ref %[[PARTS]][%{{.*}}] : memref<?xmemref<?xi32>> -> memref<?xi32>
// CHECK-NEXT: %[[MINE:.*]] = memref.load %[[PRIV]][] : memref<i32>
// CHECK-NEXT: memref.store %[[MINE]], %[[SLOTS]][%[[W]]] : memref<?xi32>
// After the epoch, in worker order.
// CHECK: %[[TABLE:.*]] = arts.db_ref %[[PP]][%{{.*}}] : memref<?xmemref<?xi32>> -> memref<?xi32>
// CHECK-NEXT: scf.for %[[K:.*]] = %{{.*}} to %[[C2]] step
// CHECK-NEXT: %[[CUR:.*]] = memref.load %[[SUM]][] : memref<i32>
// CHECK-NEXT: %[[PART:.*]] = memref.load %[[TABLE]][%[[K]]] : memref<?xi32>
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[CUR]], %[[PART]] : i32
// CHECK-NEXT: memref.store %[[NEW]], %[[SUM]][] : memref<i32>
// CHECK: arts.db_free(%[[PG]], %[[PP]]
// CHECK-NOT: arts.for
// CHECK-NOT: arts.runtime_query
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
  func.func @main() -> i32 {
    %c4951_i32 = arith.constant 4951 : i32
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %c0 = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %c8 = arith.constant 8 : index
    %c1_0 = arith.constant 1 : index
    %c0_1 = arith.constant 0 : index
    %c0_i32_2 = arith.constant 0 : i32
    %guids, %ptrs = arts.db_alloc <inout> <write> <coarse> route(%c0_i32_2) sizes[%c1_0] elementSizes[%c8] : memref<?xi64>, memref<?xmemref<8xi32>>
    %0 = arts.db_ref %ptrs[%c0_1] : memref<?xmemref<8xi32>> -> memref<8xi32>
    %c1_3 = arith.constant 1 : index
    %c0_4 = arith.constant 0 : index
    %c0_i32_5 = arith.constant 0 : i32
    %guids_6, %ptrs_7 = arts.db_alloc <inout> <write> <coarse> route(%c0_i32_5) sizes[%c1_3] elementSizes[] : memref<?xi64>, memref<?xmemref<i32>>
    %1 = arts.db_ref %ptrs_7[%c0_4] : memref<?xmemref<i32>> -> memref<i32>
    memref.store %c0_i32, %1[] : memref<i32>
    %c0_i32_8 = arith.constant 0 : i32
    %c0_9 = arith.constant 0 : index
    %guids_10, %ptrs_11 = arts.db_acquire <out> (%guids, %ptrs : memref<?xi64>, memref<?xmemref<8xi32>>) : memref<?xi64>, memref<?xmemref<8xi32>>
    %c0_12 = arith.constant 0 : index
    %guids_13, %ptrs_14 = arts.db_acquire <inout> (%guids_6, %ptrs_7 : memref<?xi64>, memref<?xmemref<i32>>) : memref<?xi64>, memref<?xmemref<i32>>
    arts.edt <parallel> <intranode> route(%c0_i32_8) (%ptrs_11, %ptrs_14 : memref<?xmemref<8xi32>>, memref<?xmemref<i32>>) attributes {workers = 2 : i64} {
    ^bb0(%arg0: memref<?xmemref<8xi32>>, %arg1: memref<?xmemref<i32>>):
      %c0_15 = arith.constant 0 : index
      %6 = arts.db_ref %arg1[%c0_15] : memref<?xmemref<i32>> -> memref<i32>
      %c0_16 = arith.constant 0 : index
      %7 = arts.db_ref %arg0[%c0_16] : memref<?xmemref<8xi32>> -> memref<8xi32>
      %8 = arts.runtime_query <current_worker> : i32
      %9 = arith.index_cast %8 : i32 to index
      memref.store %c1_i32, %7[%9] : memref<8xi32>
      arts.for (%c0) to (%c100) step (%c1) schedule(<static>) reduction([#arts.reduction<add>] %6 : memref<i32>) {
      ^bb0(%arg2: index):
        %10 = arith.index_cast %arg2 : index to i32
        %11 = memref.load %6[] : memref<i32>
        %12 = arith.addi %11, %10 : i32
        memref.store %12, %6[] : memref<i32>
      }
      arts.barrier
      arts.db_release(%arg0 : memref<?xmemref<8xi32>>)
      arts.db_release(%arg1 : memref<?xmemref<i32>>)
    }
    %2 = memref.load %1[] : memref<i32>
    %3 = memref.load %0[%c0] : memref<8xi32>
    %4 = arith.addi %2, %3 : i32
    %5 = arith.subi %4, %c4951_i32 : i32
    arts.db_free(%guids, %ptrs : memref<?xi64>, memref<?xmemref<8xi32>>)
    arts.db_free(%guids_6, %ptrs_7 : memref<?xi64>, memref<?xmemref<i32>>)
    return %5 : i32
  }
}
