// arts-verify-lowered accepts lowered ARTS ops and reports every high-level construct left.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-verify-lowered)' --verify-diagnostics

// Only lowered forms: the pass succeeds and reports nothing.
func.func private @task(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr) attributes {arts.edt_function} {
  %c0 = arith.constant 0 : index
  %u:2 = arts.edt_param_unpack %paramv : !llvm.ptr -> (index, f32)
  %guid, %ptr = arts.dep_gep %depv[%c0] : !llvm.ptr -> !llvm.ptr
  return
}
func.func @host(%r: i32, %x: f32, %guids: memref<?xi64>) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %bytes = arith.constant 64 : i64
  %g = arts.reserve_guid <write> route(%r)
  %p = arts.db_create %g, %bytes : !llvm.ptr
  %e = arts.create_epoch
  %pv = arts.edt_param_pack(%c0, %x : index, f32) : memref<?xi64>
  %t = arts.edt_create @task(%pv : memref<?xi64>) deps(%c1_i32) route(%r) epoch(%e)
  arts.rec_dep %t slot(%c0_i32) (%guids : memref<?xi64>) modes [#arts.mode<in>]
  arts.wait_on_epoch %e
  arts.db_destroy %g
  return
}

// -----

// Each leftover construct is reported once, at its own location.
func.func @leftovers(%r: i32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'arts.db_alloc' left after pre-lowering}}
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%n]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{'arts.db_ref' left after pre-lowering}}
  %b = arts.db_ref %p[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  // expected-error @+1 {{'arts.db_acquire' left after pre-lowering}}
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
      : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{'arts.epoch' left after pre-lowering}}
  %e = arts.epoch {
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%v: memref<?xmemref<?xf32>>):
      arts.db_release(%v : memref<?xmemref<?xf32>>)
    }
  }
  // expected-error @+1 {{'arts.edt' left after pre-lowering}}
  arts.edt <parallel> <intranode> route(%r) {
    arts.barrier
  }
  // expected-error @+1 {{'arts.barrier' left after pre-lowering}}
  arts.barrier
  // expected-error @+1 {{'arts.db_release' left after pre-lowering}}
  arts.db_release(%ap : memref<?xmemref<?xf32>>)
  // expected-error @+1 {{'arts.db_free' left after pre-lowering}}
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
