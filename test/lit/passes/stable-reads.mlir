// arts-stable-reads: when every acquire of an allocation is <in> (traced through acquires
// and enclosing tasks), each of them is marked stable. When tasks write it, its reads in the
// host's epochs that hold no writer are marked, and its <concurrent> writes in the host's
// epochs where every acquire of it is <concurrent>, provided every writer is in such an epoch.
// On one node, so are the <out>/<inout> acquires of a chunk's own blocks (block partition, one
// per trip of the launch loop) in the host's epochs where no other acquire names the allocation.
// An acquire that writes something not traced to an allocation keeps every read as it is.
// Running the pass twice changes nothing more.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-stable-reads)' | carts-opt --split-input-file | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-stable-reads,arts-stable-reads)' | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-stable-reads)' --debug-only=stable-reads 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// %w is read in two epochs, once through a task nested in another one: all three acquires
// are stable. %x is written in the second epoch: its read there is not stable, its read in
// the first epoch is.
// CHECK-LABEL: func.func @weights_and_state
// CHECK: arts.db_acquire <in> (%[[WG:[^,]*]], %[[WP:[^ ]*]] : {{.*}}) {stable}
// CHECK: arts.db_acquire <in> ({{.*}}) offsets[{{.*}}] {stable}
// CHECK: arts.db_acquire <in> (%[[WG]], %[[WP]] : {{.*}}) {stable}
// CHECK: arts.db_acquire <in> ({{.*}}) {stable}
// CHECK: arts.db_acquire <inout> ({{.*}}) offsets[{{[^{]*}}{{$}}
// CHECK: arts.db_acquire <in> ({{.*}}) offsets[{{[^{]*}}{{$}}
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @weights_and_state(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:14: stable: no task writes it; 3 <in> acquire(s) marked
  %wg, %wp = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:14: stable between writers: 1 <in> acquire(s) in epochs where no task writes it (first writer <inout> at {{.*}}stable-reads.mlir:[[#@LINE+27]]:16)
  %xg, %xp = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c4] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %g1, %p1 = arts.db_acquire <in> (%wg, %wp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    %g2, %p2 = arts.db_acquire <in> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
        offsets[%c0] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p1, %p2 : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) {
    ^bb0(%v1: memref<?xmemref<?xf32>>, %v2: memref<?xmemref<?xf32>>):
      arts.db_release(%v1 : memref<?xmemref<?xf32>>)
      arts.db_release(%v2 : memref<?xmemref<?xf32>>)
    }
  }
  %e1 = arts.epoch {
    %g3, %p3 = arts.db_acquire <in> (%wg, %wp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p3 : memref<?xmemref<?xf32>>) {
    ^bb0(%v3: memref<?xmemref<?xf32>>):
      %g4, %p4 = arts.db_acquire <in> (%g3, %v3 : memref<?xi64>, memref<?xmemref<?xf32>>)
          : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <intranode> route(%r) (%p4 : memref<?xmemref<?xf32>>) {
      ^bb0(%v4: memref<?xmemref<?xf32>>):
        arts.db_release(%v4 : memref<?xmemref<?xf32>>)
      }
      arts.db_release(%v3 : memref<?xmemref<?xf32>>)
    }
    %g5, %p5 = arts.db_acquire <inout> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
        offsets[%c1] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p5 : memref<?xmemref<?xf32>>) {
    ^bb0(%v5: memref<?xmemref<?xf32>>):
      arts.db_release(%v5 : memref<?xmemref<?xf32>>)
    }
    %g6, %p6 = arts.db_acquire <in> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
        offsets[%c0] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p6 : memref<?xmemref<?xf32>>) {
    ^bb0(%v6: memref<?xmemref<?xf32>>):
      arts.db_release(%v6 : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%wg, %wp : memref<?xi64>, memref<?xmemref<?xf32>>)
  arts.db_free(%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// %y is written <concurrent> by two tasks of the first epoch, where nothing else acquires
// it: both writes are stable. The second epoch only reads it: stable. In the third a task
// writes it <concurrent> and another reads it: neither is.
// CHECK-LABEL: func.func @concurrent_writers
// CHECK: arts.db_acquire <concurrent> ({{.*}}) offsets[{{.*}}] {stable}
// CHECK: arts.db_acquire <concurrent> ({{.*}}) offsets[{{.*}}] {stable}
// CHECK: arts.db_acquire <in> ({{.*}}) {stable}
// CHECK: arts.db_acquire <concurrent> ({{.*}}) offsets[{{[^{]*}}{{$}}
// CHECK: arts.db_acquire <in> ({{.*}}) : memref
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @concurrent_writers() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:14: stable between writers: 1 <in> acquire(s) in epochs where no task writes it, 2 <concurrent> acquire(s) in epochs where every acquire of it is one (first writer <concurrent> at {{.*}}stable-reads.mlir:[[#@LINE+4]]:16)
  %yg, %yp = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %g1, %p1 = arts.db_acquire <concurrent> (%yg, %yp : memref<?xi64>, memref<?xmemref<?xf32>>)
        offsets[%c0] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p1 : memref<?xmemref<?xf32>>) {
    ^bb0(%v1: memref<?xmemref<?xf32>>):
      arts.db_release(%v1 : memref<?xmemref<?xf32>>)
    }
    %g2, %p2 = arts.db_acquire <concurrent> (%yg, %yp : memref<?xi64>, memref<?xmemref<?xf32>>)
        offsets[%c0] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p2 : memref<?xmemref<?xf32>>) {
    ^bb0(%v2: memref<?xmemref<?xf32>>):
      arts.db_release(%v2 : memref<?xmemref<?xf32>>)
    }
  }
  %e1 = arts.epoch {
    %g3, %p3 = arts.db_acquire <in> (%yg, %yp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p3 : memref<?xmemref<?xf32>>) {
    ^bb0(%v3: memref<?xmemref<?xf32>>):
      arts.db_release(%v3 : memref<?xmemref<?xf32>>)
    }
  }
  %e2 = arts.epoch {
    %g4, %p4 = arts.db_acquire <concurrent> (%yg, %yp : memref<?xi64>, memref<?xmemref<?xf32>>)
        offsets[%c0] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p4 : memref<?xmemref<?xf32>>) {
    ^bb0(%v4: memref<?xmemref<?xf32>>):
      arts.db_release(%v4 : memref<?xmemref<?xf32>>)
    }
    %g5, %p5 = arts.db_acquire <in> (%yg, %yp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p5 : memref<?xmemref<?xf32>>) {
    ^bb0(%v5: memref<?xmemref<?xf32>>):
      arts.db_release(%v5 : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%yg, %yp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// A writer outside every epoch may run while any epoch does: no read of %x is marked.
// CHECK-LABEL: func.func @writer_outside_epochs
// CHECK: arts.db_acquire <inout>
// CHECK-NOT: stable
// CHECK: return
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @writer_outside_epochs() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:14: not stable: a task acquires it <inout> at {{.*}}stable-reads.mlir:[[#@LINE+3]]:14, outside an epoch the host runs in turn
  %xg, %xp = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %g1, %p1 = arts.db_acquire <inout> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
      : memref<?xi64>, memref<?xmemref<?xf32>>
  arts.edt <task> <intranode> route(%r) (%p1 : memref<?xmemref<?xf32>>) {
  ^bb0(%v1: memref<?xmemref<?xf32>>):
    arts.db_release(%v1 : memref<?xmemref<?xf32>>)
  }
  %e = arts.epoch {
    %g2, %p2 = arts.db_acquire <in> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p2 : memref<?xmemref<?xf32>>) {
    ^bb0(%v2: memref<?xmemref<?xf32>>):
      arts.db_release(%v2 : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// Epochs in a function something calls (a task might) are not the host's turns: the read
// in the epoch without a writer stays as it is.
// CHECK-LABEL: func.func @called
// CHECK: arts.db_acquire <in>
// CHECK-NOT: stable
// CHECK: return
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @called() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:14: not stable: a task acquires it <out> at {{.*}}stable-reads.mlir:[[#@LINE+12]]:16, outside an epoch the host runs in turn
  %xg, %xp = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %g1, %p1 = arts.db_acquire <in> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p1 : memref<?xmemref<?xf32>>) {
    ^bb0(%v1: memref<?xmemref<?xf32>>):
      arts.db_release(%v1 : memref<?xmemref<?xf32>>)
    }
  }
  %e1 = arts.epoch {
    %g2, %p2 = arts.db_acquire <out> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p2 : memref<?xmemref<?xf32>>) {
    ^bb0(%v2: memref<?xmemref<?xf32>>):
      arts.db_release(%v2 : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
func.func @caller() {
  func.call @called() : () -> ()
  return
}
}

// -----

// A task writes a table that cannot be traced to its allocation (a function argument): it
// might be %w, so %w's read stays as it is.
// CHECK-LABEL: func.func @untraced_writer
// CHECK: arts.db_acquire <in> ({{.*}}) : {{.*}}
// CHECK-NOT: stable
// CHECK: return
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @untraced_writer(%ag: memref<?xi64>, %ap: memref<?xmemref<?xf32>>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %wg, %wp = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e = arts.epoch {
    %g1, %p1 = arts.db_acquire <in> (%wg, %wp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:16: this acquire writes a datablock not traced to its allocation: no read is marked stable
    %g2, %p2 = arts.db_acquire <out> (%ag, %ap : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p1, %p2 : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) {
    ^bb0(%v1: memref<?xmemref<?xf32>>, %v2: memref<?xmemref<?xf32>>):
      arts.db_release(%v1 : memref<?xmemref<?xf32>>)
      arts.db_release(%v2 : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%wg, %wp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// %z is cut into blocks. In the first epoch the chunks of one launch loop write their own
// blocks and nothing else acquires %z: stable. In the second the same acquire sits in a host
// loop inside the epoch, so each block is written once per trip: not stable. In the third a
// task also reads %z: neither is. %u, the same as the first epoch but in a module of two
// nodes, is not marked.
// CHECK-LABEL: func.func @own_blocks
// CHECK: arts.db_acquire <out> ({{.*}}) offsets[{{.*}}] sizes[{{.*}}] partition(<block>) {stable}
// CHECK: arts.db_acquire <out> ({{.*}}) offsets[{{.*}}] sizes[{{.*}}] partition(<block>) : memref
// CHECK: arts.db_acquire <inout> ({{.*}}) offsets[{{.*}}] sizes[{{.*}}] partition(<block>) : memref
// CHECK: arts.db_acquire <in> ({{.*}}) : memref
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @own_blocks() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:14: stable between writers: 1 acquire(s) of a chunk's own blocks in epochs where nothing else acquires it (first writer <out> at {{.*}}stable-reads.mlir:[[#@LINE+5]]:18)
  %zg, %zp = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c2]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    scf.for %k = %c0 to %c2 step %c1 {
      %g1, %p1 = arts.db_acquire <out> (%zg, %zp : memref<?xi64>, memref<?xmemref<?xf32>>)
          offsets[%k] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <intranode> route(%r) (%p1 : memref<?xmemref<?xf32>>) {
      ^bb0(%v1: memref<?xmemref<?xf32>>):
        arts.db_release(%v1 : memref<?xmemref<?xf32>>)
      }
    } {arts.launch_loop}
  }
  %e1 = arts.epoch {
    scf.for %t = %c0 to %c4 step %c1 {
      scf.for %k = %c0 to %c2 step %c1 {
        %g2, %p2 = arts.db_acquire <out> (%zg, %zp : memref<?xi64>, memref<?xmemref<?xf32>>)
            offsets[%k] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?xf32>>
        arts.edt <task> <intranode> route(%r) (%p2 : memref<?xmemref<?xf32>>) {
        ^bb0(%v2: memref<?xmemref<?xf32>>):
          arts.db_release(%v2 : memref<?xmemref<?xf32>>)
        }
      } {arts.launch_loop}
    }
  }
  %e2 = arts.epoch {
    scf.for %k = %c0 to %c2 step %c1 {
      %g3, %p3 = arts.db_acquire <inout> (%zg, %zp : memref<?xi64>, memref<?xmemref<?xf32>>)
          offsets[%k] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <intranode> route(%r) (%p3 : memref<?xmemref<?xf32>>) {
      ^bb0(%v3: memref<?xmemref<?xf32>>):
        arts.db_release(%v3 : memref<?xmemref<?xf32>>)
      }
    } {arts.launch_loop}
    %g4, %p4 = arts.db_acquire <in> (%zg, %zp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p4 : memref<?xmemref<?xf32>>) {
    ^bb0(%v4: memref<?xmemref<?xf32>>):
      arts.db_release(%v4 : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%zg, %zp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// CHECK-LABEL: func.func @own_blocks_two_nodes
// CHECK: arts.db_acquire <out> ({{.*}}) offsets[{{.*}}] sizes[{{.*}}] partition(<block>) : memref
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @own_blocks_two_nodes() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = arith.constant 0 : i32
  // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:14: not stable: it is written in every epoch that acquires it
  %ug, %up = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c2]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    scf.for %k = %c0 to %c2 step %c1 {
      %g1, %p1 = arts.db_acquire <out> (%ug, %up : memref<?xi64>, memref<?xmemref<?xf32>>)
          offsets[%k] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <intranode> route(%r) (%p1 : memref<?xmemref<?xf32>>) {
      ^bb0(%v1: memref<?xmemref<?xf32>>):
        arts.db_release(%v1 : memref<?xmemref<?xf32>>)
      }
    } {arts.launch_loop}
  }
  arts.db_free(%ug, %up : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// A task reads a table that cannot be traced to its allocation (a function argument): it
// might be %z, so %z's own-block write in the same epoch stays ordered.
// CHECK-LABEL: func.func @own_blocks_untraced_read
// CHECK: arts.db_acquire <out> ({{.*}}) offsets[{{.*}}] sizes[{{.*}}] partition(<block>) : memref
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @own_blocks_untraced_read(%ag: memref<?xi64>, %ap: memref<?xmemref<?xf32>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = arith.constant 0 : i32
  // DEBUG: [stable-reads] {{.*}}stable-reads.mlir:[[#@LINE+13]]:16: this acquire reads a datablock not traced to its allocation: no write of a chunk's own blocks is marked stable
  // DEBUG-NEXT: [stable-reads] {{.*}}stable-reads.mlir:[[@LINE+1]]:14: not stable: it is written in every epoch that acquires it
  %zg, %zp = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c2]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    scf.for %k = %c0 to %c2 step %c1 {
      %g1, %p1 = arts.db_acquire <out> (%zg, %zp : memref<?xi64>, memref<?xmemref<?xf32>>)
          offsets[%k] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <intranode> route(%r) (%p1 : memref<?xmemref<?xf32>>) {
      ^bb0(%v1: memref<?xmemref<?xf32>>):
        arts.db_release(%v1 : memref<?xmemref<?xf32>>)
      }
    } {arts.launch_loop}
    %g2, %p2 = arts.db_acquire <in> (%ag, %ap : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p2 : memref<?xmemref<?xf32>>) {
    ^bb0(%v2: memref<?xmemref<?xf32>>):
      arts.db_release(%v2 : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%zg, %zp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}
