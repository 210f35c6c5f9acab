// Every verifier rule of the ARTS dialect fires with its message.
// RUN: carts-opt %s --split-input-file --verify-diagnostics

func.func @workers_positive(%r: i32) {
  // expected-error @+1 {{workers must be positive, got 0}}
  arts.edt <parallel> <intranode> route(%r) attributes {workers = 0} {
  }
  return
}

// -----

func.func @workers_only_on_parallel(%r: i32) {
  // expected-error @+1 {{only a parallel task has workers}}
  arts.edt <single> <intranode> route(%r) attributes {workers = 2} {
  }
  return
}

// -----

func.func @edt_block_args(%r: i32, %m: memref<?xf32>) {
  // expected-error @+1 {{expects one block argument per dependency (1 dependencies, 0 block arguments)}}
  arts.edt <task> <intranode> route(%r) (%m : memref<?xf32>) attributes {no_verify} {
  }
  return
}

// -----

func.func @edt_block_arg_type(%r: i32, %m: memref<?xf32>) {
  // expected-error @+1 {{block argument #0 has type 'memref<?xf64>' but dependency #0 has type 'memref<?xf32>'}}
  arts.edt <task> <intranode> route(%r) (%m : memref<?xf32>) attributes {no_verify} {
  ^bb0(%a: memref<?xf64>):
  }
  return
}

// -----

func.func @edt_dep_from_acquire(%r: i32, %m: memref<?xf32>) {
  // expected-error @+1 {{dependency #0 must come from arts.db_acquire}}
  arts.edt <task> <intranode> route(%r) (%m : memref<?xf32>) {
  ^bb0(%a: memref<?xf32>):
  }
  return
}

// -----

func.func @edt_route_i32(%r: i64) {
  // expected-error @+1 {{must be 32-bit signless integer}}
  "arts.edt"(%r) <{edt_type = #arts.edt_type<task>, concurrency = #arts.concurrency<intranode>}> ({
    arts.yield
  }) : (i64) -> ()
  return
}

// -----

func.func @for_step_positive(%r: i32, %n: index) {
  %c0 = arith.constant 0 : index
  arts.edt <parallel> <intranode> route(%r) {
    // expected-error @+1 {{step must be positive, got 0}}
    arts.for (%c0) to (%n) step (%c0) {
    ^bb0(%i: index):
    }
  }
  return
}

// -----

func.func @for_reduction_kinds(%r: i32, %n: index, %a: memref<f32>, %b: memref<f32>) {
  %c1 = arith.constant 1 : index
  arts.edt <parallel> <intranode> route(%r) {
    // expected-error @+1 {{expects one reduction kind per accumulator (1 kinds, 2 accumulators)}}
    arts.for (%c1) to (%n) step (%c1) reduction([#arts.reduction<max>] %a, %b : memref<f32>, memref<f32>) {
    ^bb0(%i: index):
    }
  }
  return
}

// -----

func.func @for_reduction_accumulator(%r: i32, %n: index, %a: memref<4x2xf32>) {
  %c1 = arith.constant 1 : index
  arts.edt <parallel> <intranode> route(%r) {
    // expected-error @+1 {{reduction accumulator must be a scalar or a 1-D array of at most 64 elements of static size, got 'memref<4x2xf32>'}}
    arts.for (%c1) to (%n) step (%c1) reduction([#arts.reduction<add>] %a : memref<4x2xf32>) {
    ^bb0(%i: index):
    }
  }
  return
}

// -----

func.func @for_chunk_without_schedule(%r: i32, %n: index) {
  %c1 = arith.constant 1 : index
  arts.edt <parallel> <intranode> route(%r) {
    // expected-error @+1 {{chunk size given without a schedule}}
    "arts.for"(%c1, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>}> ({
    ^bb0(%i: index):
      arts.yield
    }) : (index, index, index, index) -> ()
  }
  return
}

// -----

func.func @for_induction_variable(%r: i32, %n: index) {
  %c1 = arith.constant 1 : index
  arts.edt <parallel> <intranode> route(%r) {
    // expected-error @+1 {{body must have exactly one index argument (the induction variable)}}
    arts.for (%c1) to (%n) step (%c1) {
    ^bb0(%i: i32):
    }
  }
  return
}

// -----

func.func @for_in_parallel_edt(%r: i32, %n: index) {
  %c1 = arith.constant 1 : index
  arts.edt <single> <intranode> route(%r) {
    // expected-error @+1 {{must be nested in a parallel arts.edt}}
    arts.for (%c1) to (%n) step (%c1) {
    ^bb0(%i: index):
    }
  }
  return
}

// -----

func.func @yield_parent() {
  // expected-error @+1 {{expects parent op to be one of 'arts.edt, arts.for, arts.epoch, arts.critical'}}
  arts.yield
}

// -----

func.func @alloc_needs_sizes(%r: i32, %n: index) {
  // expected-error @+1 {{expects at least one size (number of blocks per partitioned dimension)}}
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[] elementSizes[%n] : memref<i64>, memref<memref<?xf32>>
  return
}

// -----

func.func @alloc_table_rank(%r: i32, %n: index) {
  // expected-error @+1 {{handle tables must have rank 1 (one dimension per size), got 'memref<?x?xi64>' and 'memref<?xmemref<?xf32>>'}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%n] : memref<?x?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @alloc_table_shape(%r: i32, %n: index) {
  // expected-error @+1 {{GUID and payload tables must have the same shape}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%n] : memref<4xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @alloc_payload_memref(%r: i32, %n: index) {
  // expected-error @+1 {{payload table elements must be memrefs (one per block), got 'f32'}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%n] : memref<?xi64>, memref<?xf32>
  return
}

// -----

func.func @alloc_block_rank(%r: i32, %n: index) {
  // expected-error @+1 {{block type 'memref<?xf32>' must have one dimension per element size (2)}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%n, %n] : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @alloc_coarse_one_block(%r: i32, %n: index) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{a coarse allocation has one block per dimension, got 2}}
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c2] elementSizes[%n] : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @alloc_read_only(%r: i32, %n: index) {
  // expected-error @+1 {{a read-only allocation cannot be written (mode inout)}}
  %g, %p = arts.db_alloc <inout> <read> <block> route(%r) sizes[%n] elementSizes[%n] : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @alloc_address_type(%r: i32, %n: index, %src: memref<?xf64>) {
  // expected-error @+1 {{address element type 'f64' differs from the block element type 'f32'}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%n] address(%src : memref<?xf64>) : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @alloc_guid_type(%r: i32, %n: index) {
  // expected-error @+1 {{result #0 must be memref of 64-bit signless integer values}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%n] : memref<?xi32>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @acquire_source_rank(%g: memref<?x?xi64>, %p: memref<?xmemref<?xf32>>) {
  // expected-error @+1 {{source GUID and payload tables must have the same rank}}
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?x?xi64>, memref<?xmemref<?xf32>>) : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @acquire_offsets_sizes(%g: memref<?xi64>, %p: memref<?xmemref<?xf32>>, %i: index) {
  // expected-error @+1 {{expects as many sizes as offsets (1 offsets, 0 sizes)}}
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>) offsets[%i] : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @acquire_too_many_dims(%g: memref<?xi64>, %p: memref<?xmemref<?xf32>>, %i: index) {
  // expected-error @+1 {{indices and offsets address 2 dimensions of a rank-1 table}}
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>) indices[%i] offsets[%i] sizes[%i] : memref<?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @acquire_payload_type(%g: memref<?xi64>, %p: memref<?xmemref<?xf32>>) {
  // expected-error @+1 {{acquired payload type 'memref<?xf64>' differs from the source block type 'memref<?xf32>'}}
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>) : memref<?xi64>, memref<?xmemref<?xf64>>
  return
}

// -----

func.func @acquire_result_rank(%g: memref<?xi64>, %p: memref<?xmemref<?xf32>>) {
  // expected-error @+1 {{acquired GUID and payload tables must have the same rank}}
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>) : memref<?x?xi64>, memref<?xmemref<?xf32>>
  return
}

// -----

func.func @ref_indices(%p: memref<?x?xmemref<?xf32>>, %i: index) {
  // expected-error @+1 {{expects 2 indices into the handle table, got 1}}
  %b = arts.db_ref %p[%i] : memref<?x?xmemref<?xf32>> -> memref<?xf32>
  return
}

// -----

func.func @ref_result_type(%p: memref<?xmemref<?xf32>>, %i: index) {
  // expected-error @+1 {{result type 'memref<?xf64>' must be the table's block type 'memref<?xf32>'}}
  %b = arts.db_ref %p[%i] : memref<?xmemref<?xf32>> -> memref<?xf64>
  return
}

// -----

func.func @atomic_add_indices(%m: memref<?xf32>, %v: f32) {
  // expected-error @+1 {{expects 1 indices, got 0}}
  arts.atomic_add %v, %m[] : memref<?xf32>
  return
}

// -----

func.func @atomic_add_value_type(%m: memref<?xf32>, %v: f64, %i: index) {
  // expected-error @+1 {{value type matches the memref element type}}
  "arts.atomic_add"(%v, %m, %i) : (f64, memref<?xf32>, index) -> ()
  return
}

// -----

func.func @pack_type(%v: vector<4xf32>) {
  // expected-error @+1 {{value #0 of type 'vector<4xf32>' cannot be packed into EDT parameters}}
  %p = arts.edt_param_pack(%v : vector<4xf32>) : memref<?xi64>
  return
}

// -----

func.func @unpack_type(%p: memref<?xi64>) {
  // expected-error @+1 {{result #0 of type 'vector<2xi64>' cannot be unpacked from EDT parameters}}
  %v = arts.edt_param_unpack %p : memref<?xi64> -> (vector<2xi64>)
  return
}

// -----

func.func @create_names_function(%p: memref<?xi64>, %n: i32) {
  // expected-error @+1 {{outlined_func '@missing' does not name a function}}
  %g = arts.edt_create @missing(%p : memref<?xi64>) deps(%n) route(%n)
  return
}

// -----

func.func @rec_dep_tables(%e: i64, %s: i32) {
  // expected-error @+1 {{expects at least one GUID table}}
  "arts.rec_dep"(%e, %s) <{acquire_modes = []}> : (i64, i32) -> ()
  return
}

// -----

func.func @rec_dep_modes(%e: i64, %s: i32, %g: memref<?xi64>) {
  // expected-error @+1 {{expects one acquire mode per GUID table (2 modes, 1 tables)}}
  arts.rec_dep %e slot(%s) (%g : memref<?xi64>) modes [#arts.mode<in>, #arts.mode<out>]
  return
}

// -----

func.func @unknown_enum_case(%r: i32) {
  // expected-error @+2 {{expected ::mlir::arts::EdtType to be one of: parallel, single, sync, task}}
  // expected-error @+1 {{failed to parse Arts_EdtTypeAttr parameter}}
  arts.edt <bogus> <intranode> route(%r) {
  }
  return
}

// -----

// Only a distributed allocation has host shadows to fetch into; a table on node 0 may only be
// flushed (a put of each block onto itself).
func.func @fetch_not_distributed(%r: i32, %n: index) {
  %c1 = arith.constant 1 : index
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
  arts.db_sync <flush> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  // expected-error @+1 {{fetches into the host shadows of a distributed arts.db_alloc; this one is not distributed (its payload is node 0's own)}}
  arts.db_sync <fetch> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}

// -----

// A distributed allocation's blocks live on their owners: there is no table on node 0 to share.
func.func @share_distributed(%r: i32, %n: index) {
  %c1 = arith.constant 1 : index
  %g, %p = arts.db_alloc <in> <read> <block> route(%r) sizes[%n] elementSizes[%c1] {distributed} : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{shares a table on node 0; this arts.db_alloc is distributed (its blocks live on their owners)}}
  arts.db_sync <share> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}

// -----

// The tables must be the two results of one allocation, not a task's acquired view of them.
func.func @sync_of_acquire(%r: i32, %n: index) {
  %c1 = arith.constant 1 : index
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%n] elementSizes[%c1] {distributed} : memref<?xi64>, memref<?xmemref<?xf32>>
  %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>) : memref<?xi64>, memref<?xmemref<?xf32>>
  // expected-error @+1 {{operands must be the GUID and payload tables of one arts.db_alloc}}
  arts.db_sync <fetch> (%ag, %ap : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
