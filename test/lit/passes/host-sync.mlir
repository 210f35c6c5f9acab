// arts-host-sync: with several nodes, host code sees the blocks of a distributed datablock
// that other nodes own through shadows; a flush goes before an epoch whose tasks use what the
// host wrote, a fetch before a host access to what tasks wrote. A table that is not distributed
// lives on node 0 and the host writes it in place, but other nodes may hold copies of it once
// tasks have acquired it: it is flushed (a new version) before an epoch whose tasks acquire
// what the host wrote since then, and never fetched. Loops are walked with their back edge;
// syncs needed only for a loop's first iteration go before the loop. A second run adds
// nothing; with one node nothing happens.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-host-sync)' | carts-opt --split-input-file | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-host-sync,arts-host-sync)' | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-host-sync)' --debug-only=host-sync 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// Host init, an epoch reading the datablock, an epoch writing it, a host checksum: one flush
// before the first epoch (the second finds nothing new to flush), one fetch before the
// checksum loop (once, before the whole nest).
// CHECK-LABEL: func.func @init_compute_check
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc
// CHECK: scf.for
// CHECK: memref.store
// CHECK: arts.db_sync <flush> (%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?x8xf32>>)
// CHECK-NEXT: arts.epoch
// CHECK: arts.db_acquire <in>
// CHECK-NOT: arts.db_sync
// CHECK: arts.epoch
// CHECK: arts.db_acquire <inout>
// CHECK: arts.db_sync <fetch> (%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?x8xf32>>)
// CHECK-NEXT: scf.for
// CHECK-NOT: arts.db_sync
// CHECK: arts.db_free
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @init_compute_check(%v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = arith.constant 0 : i32
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[#ALLOC:@LINE+1]]:12: {{.*}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c4, %c8]
      {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?x8xf32>>
  scf.for %b = %c0 to %c2 step %c1 {
    %blk = arts.db_ref %p[%b] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
    memref.store %v, %blk[%c0, %c0] : memref<?x8xf32>
  }
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[@LINE+1]]:9: flush {{.*}}host-sync.mlir:[[#ALLOC]]:12 before epoch
  %e0 = arts.epoch {
    scf.for %b = %c0 to %c2 step %c1 {
      %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
          offsets[%b] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?x8xf32>>
      arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?x8xf32>>) {
      ^bb0(%view: memref<?xmemref<?x8xf32>>):
        arts.db_release(%view : memref<?xmemref<?x8xf32>>)
      }
    }
  }
  %e1 = arts.epoch {
    scf.for %b = %c0 to %c2 step %c1 {
      %ag, %ap = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
          offsets[%b] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?x8xf32>>
      arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?x8xf32>>) {
      ^bb0(%view: memref<?xmemref<?x8xf32>>):
        arts.db_release(%view : memref<?xmemref<?x8xf32>>)
      }
    }
  }
  %zero = arith.constant 0.0 : f32
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[@LINE+1]]:10: fetch {{.*}}host-sync.mlir:[[#ALLOC]]:12 before host access
  %sum = scf.for %b = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (f32) {
    %inner = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc2 = %acc) -> (f32) {
      %blk = arts.db_ref %p[%b] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
      %x = memref.load %blk[%i, %c0] : memref<?x8xf32>
      %s = arith.addf %acc2, %x : f32
      scf.yield %s : f32
    }
    scf.yield %inner : f32
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  return %sum : f32
}
}

// -----

// A time loop whose body runs an epoch that updates the datablock, then reads and writes it
// on the host: every iteration fetches after the epoch and flushes before it (the back edge
// brings the host's writes round); nothing goes before the loop, since the body needs both
// syncs on every iteration anyway. After the loop the shadows are current: no fetch.
// CHECK-LABEL: func.func @time_loop
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc
// CHECK: memref.store
// CHECK-NOT: arts.db_sync
// CHECK: scf.for
// CHECK-NEXT: arts.db_sync <flush> (%[[G]], %[[P]]
// CHECK-NEXT: arts.epoch
// CHECK: arts.db_ref
// CHECK-NEXT: arts.db_sync <fetch> (%[[G]], %[[P]]
// CHECK-NEXT: memref.load
// CHECK-NOT: arts.db_sync
// CHECK: arts.db_free
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @time_loop(%v: f32, %steps: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = arith.constant 0 : i32
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[#ALLOC:@LINE+1]]:12: {{.*}}
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c4, %c8]
      {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?x8xf32>>
  %first = arts.db_ref %p[%c0] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
  memref.store %v, %first[%c0, %c0] : memref<?x8xf32>
  scf.for %t = %c0 to %steps step %c1 {
    // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[@LINE+1]]:10: flush {{.*}}host-sync.mlir:[[#ALLOC]]:12 before epoch
    %e = arts.epoch {
      scf.for %b = %c0 to %c2 step %c1 {
        %ag, %ap = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
            offsets[%b] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?x8xf32>>
        arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?x8xf32>>) {
        ^bb0(%view: memref<?xmemref<?x8xf32>>):
          arts.db_release(%view : memref<?xmemref<?x8xf32>>)
        }
      }
    }
    %blk = arts.db_ref %p[%c1] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
    // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[@LINE+1]]:10: fetch {{.*}}host-sync.mlir:[[#ALLOC]]:12 before host access
    %x = memref.load %blk[%c0, %c0] : memref<?x8xf32>
    %y = arith.addf %x, %v : f32
    memref.store %y, %blk[%c0, %c0] : memref<?x8xf32>
  }
  %after = arts.db_ref %p[%c1] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
  %z = memref.load %after[%c0, %c0] : memref<?x8xf32>
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  return %z : f32
}
}

// -----

// Syncs only the first iteration needs go before the loop: the weights the host wrote are
// flushed once, not before every epoch reading them; the results an epoch before the loop
// wrote are fetched once, since the loop's own epochs only read them. The scratch datablock
// the loop's tasks write and its host code reads is fetched inside, after the epoch.
// CHECK-LABEL: func.func @hoisted
// CHECK: %[[WG:.*]], %[[WP:.*]] = arts.db_alloc <in> <read>
// CHECK: %[[YG:.*]], %[[YP:.*]] = arts.db_alloc <inout> <write>
// CHECK: arts.db_sync <flush> (%[[YG]], %[[YP]]
// CHECK-NEXT: arts.epoch
// CHECK: arts.db_sync <flush> (%[[WG]], %[[WP]]
// CHECK-NEXT: arts.db_sync <fetch> (%[[YG]], %[[YP]]
// CHECK-NEXT: scf.for
// CHECK-NOT: arts.db_sync
// CHECK: arts.db_ref %[[YP]]
// CHECK-NOT: arts.db_sync
// CHECK: arts.epoch
// CHECK-NOT: arts.db_sync
// CHECK: return
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @hoisted(%v: f32, %steps: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[#W:@LINE+1]]:14: {{.*}}
  %wg, %wp = arts.db_alloc <in> <read> <block> route(%r) sizes[%c2] elementSizes[%c4, %c8]
      {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?x8xf32>>
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[#Y:@LINE+1]]:14: {{.*}}
  %yg, %yp = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c4, %c8]
      {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?x8xf32>>
  scf.for %b = %c0 to %c2 step %c1 {
    %w = arts.db_ref %wp[%b] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
    memref.store %v, %w[%c0, %c0] : memref<?x8xf32>
    %y = arts.db_ref %yp[%b] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
    memref.store %v, %y[%c0, %c0] : memref<?x8xf32>
  }
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[@LINE+1]]:9: flush {{.*}}host-sync.mlir:[[#Y]]:14 before epoch
  %e0 = arts.epoch {
    %ag, %ap = arts.db_acquire <inout> (%yg, %yp : memref<?xi64>, memref<?xmemref<?x8xf32>>)
        : memref<?xi64>, memref<?xmemref<?x8xf32>>
    arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?x8xf32>>) {
    ^bb0(%view: memref<?xmemref<?x8xf32>>):
      arts.db_release(%view : memref<?xmemref<?x8xf32>>)
    }
  }
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[@LINE+2]]:10: flush {{.*}}host-sync.mlir:[[#W]]:14 before loop (its first epoch acquiring it)
  // DEBUG: [host-sync] {{.*}}host-sync.mlir:[[@LINE+1]]:10: fetch {{.*}}host-sync.mlir:[[#Y]]:14 before loop (its first host access)
  %res = scf.for %t = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (f32) {
    %y = arts.db_ref %yp[%c1] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
    %x = memref.load %y[%c0, %c0] : memref<?x8xf32>
    %s = arith.addf %acc, %x : f32
    %e = arts.epoch {
      %ag, %ap = arts.db_acquire <in> (%wg, %wp : memref<?xi64>, memref<?xmemref<?x8xf32>>)
          : memref<?xi64>, memref<?xmemref<?x8xf32>>
      %bg, %bp = arts.db_acquire <in> (%yg, %yp : memref<?xi64>, memref<?xmemref<?x8xf32>>)
          : memref<?xi64>, memref<?xmemref<?x8xf32>>
      arts.edt <task> <internode> route(%r) (%ap, %bp : memref<?xmemref<?x8xf32>>, memref<?xmemref<?x8xf32>>) {
      ^bb0(%view: memref<?xmemref<?x8xf32>>, %view2: memref<?xmemref<?x8xf32>>):
        arts.db_release(%view : memref<?xmemref<?x8xf32>>)
        arts.db_release(%view2 : memref<?xmemref<?x8xf32>>)
      }
    }
    scf.yield %s : f32
  }
  arts.db_free(%wg, %wp : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  arts.db_free(%yg, %yp : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  return %res : f32
}
}

// -----

// An epoch in one branch of an scf.if: after the join the datablock may be stale, so the read
// after it fetches.
// CHECK-LABEL: func.func @branch
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc
// CHECK: scf.if
// CHECK-NOT: arts.db_sync
// CHECK: arts.epoch
// CHECK: }
// CHECK: arts.db_ref
// CHECK-NEXT: arts.db_sync <fetch> (%[[G]], %[[P]]
// CHECK-NEXT: memref.load
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @branch(%cond: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c4, %c8]
      {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?x8xf32>>
  scf.if %cond {
    %e = arts.epoch {
      %ag, %ap = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
          : memref<?xi64>, memref<?xmemref<?x8xf32>>
      arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?x8xf32>>) {
      ^bb0(%view: memref<?xmemref<?x8xf32>>):
        arts.db_release(%view : memref<?xmemref<?x8xf32>>)
      }
    }
  }
  %blk = arts.db_ref %p[%c1] : memref<?xmemref<?x8xf32>> -> memref<?x8xf32>
  %x = memref.load %blk[%c0, %c0] : memref<?x8xf32>
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?x8xf32>>)
  return %x : f32
}
}

// -----

// One node: every block is the host's own, nothing to sync.
// CHECK-LABEL: func.func @one_node
// CHECK-NOT: arts.db_sync
// DEBUG: [host-sync] {{.*}}: one node: no host sync
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @one_node(%v: f32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c4]
      {distributed} : memref<?xi64>, memref<?xmemref<?xf32>>
  %blk = arts.db_ref %p[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  memref.store %v, %blk[%c0] : memref<?xf32>
  %e = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// A table on node 0 (coarse, not distributed): the host writes it before the first epoch, which
// needs no flush (no other node holds a copy yet), then between the two epochs, so the second
// epoch's tasks must not use a copy a node kept from the first: one flush, before the second.
// Tasks spread over the nodes read it whole, so each time the host wrote it, a share sends
// the other nodes its copy before the epoch (and before any host code between).
// CHECK-LABEL: func.func @node_zero_written
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc <inout> <write> <coarse>
// CHECK: memref.store
// CHECK-NEXT: arts.db_sync <share> (%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?xf32>>)
// CHECK-NEXT: arts.epoch
// CHECK: arts.db_acquire <in>
// CHECK-NOT: arts.db_sync
// CHECK: memref.store
// CHECK-NEXT: arts.db_sync <flush> (%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?xf32>>)
// CHECK-NEXT: arts.db_sync <share> (%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?xf32>>)
// CHECK-NEXT: arts.epoch
// CHECK: arts.db_acquire <in>
// CHECK-NOT: arts.db_sync
// CHECK: return
// DEBUG: [host-sync] {{.*}}host-sync.mlir:[[#NZ:@LINE+8]]:12: datablock on node 0: host code reads it at 0 and may write it at 2 places
// DEBUG: [host-sync] {{.*}}host-sync.mlir:[[@LINE+20]]:9: flush {{.*}}host-sync.mlir:[[#NZ]]:12 before epoch (host writes reach the owner's copy: new version)
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @node_zero_written(%v: f32, %w: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %blk = arts.db_ref %p[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  memref.store %v, %blk[%c0] : memref<?xf32>
  %e0 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  memref.store %w, %blk[%c1] : memref<?xf32>
  %e1 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// A table on node 0 that tasks write and the host only reads: the tasks' write-backs reach
// node 0 before their epoch ends (no fetch) and the host writes nothing (no flush).
// CHECK-LABEL: func.func @node_zero_read_only
// CHECK-NOT: arts.db_sync
// CHECK: return
// DEBUG: [host-sync] {{.*}}: datablock on node 0: host code reads it at 1 and may write it at 0 places
// DEBUG: [host-sync] {{.*}}: 1 datablocks (0 distributed), 0 syncs inserted
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @node_zero_read_only() -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %ag, %ap = arts.db_acquire <inout> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  %blk = arts.db_ref %p[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  %x = memref.load %blk[%c0] : memref<?xf32>
  %e1 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return %x : f32
}
}

// -----

// Tables on node 0 in a time loop. The weights the host writes before the loop are flushed
// nowhere (no task has acquired them before) but shared before the loop, once; the input the
// host writes at the top of every iteration is flushed before the epoch inside the loop (from
// the second iteration on, nodes may hold the previous iteration's copy), then shared.
// CHECK-LABEL: func.func @node_zero_loop
// CHECK: %[[WG:.*]], %[[WP:.*]] = arts.db_alloc <in> <read> <coarse>
// CHECK: %[[XG:.*]], %[[XP:.*]] = arts.db_alloc <in> <read> <coarse>
// CHECK-NOT: arts.db_sync <flush>
// CHECK: arts.db_sync <share> (%[[WG]], %[[WP]]
// CHECK-NEXT: scf.for
// CHECK: memref.store
// CHECK-NEXT: arts.db_sync <flush> (%[[XG]], %[[XP]]
// CHECK-NEXT: arts.db_sync <share> (%[[XG]], %[[XP]]
// CHECK-NEXT: arts.epoch
// CHECK-NOT: arts.db_sync
// CHECK: return
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @node_zero_loop(%v: f32, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %wg, %wp = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %xg, %xp = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %w = arts.db_ref %wp[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  memref.store %v, %w[%c0] : memref<?xf32>
  %x = arts.db_ref %xp[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  scf.for %t = %c0 to %steps step %c1 {
    memref.store %v, %x[%c0] : memref<?xf32>
    %e = arts.epoch {
      %ag, %ap = arts.db_acquire <in> (%wg, %wp : memref<?xi64>, memref<?xmemref<?xf32>>)
          : memref<?xi64>, memref<?xmemref<?xf32>>
      %bg, %bp = arts.db_acquire <in> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
          : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <internode> route(%r) (%ap, %bp : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) {
      ^bb0(%view: memref<?xmemref<?xf32>>, %view2: memref<?xmemref<?xf32>>):
        arts.db_release(%view : memref<?xmemref<?xf32>>)
        arts.db_release(%view2 : memref<?xmemref<?xf32>>)
      }
    }
  }
  arts.db_free(%wg, %wp : memref<?xi64>, memref<?xmemref<?xf32>>)
  arts.db_free(%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// Shared only what tasks spread over the nodes read whole: a table read by blocks (each
// chunk its own), one a task on node 0 reads, and one the epoch also writes are not.
// CHECK-LABEL: func.func @share_whole_reads_only
// CHECK: %[[AG:.*]], %[[AP:.*]] = arts.db_alloc <in> <read> <coarse>
// CHECK: memref.store
// CHECK-NEXT: arts.db_sync <share> (%[[AG]], %[[AP]]
// CHECK-NOT: arts.db_sync
// CHECK: return
// DEBUG: [host-sync] {{.*}}host-sync.mlir:[[#SW:@LINE+10]]:14: datablock on node 0: host code reads it at 0 and may write it at 1 places
// DEBUG: [host-sync] {{.*}}share {{.*}}host-sync.mlir:[[#SW]]:14 after the host's last write, ahead of the epoch at
// DEBUG: [host-sync] {{.*}}: 4 datablocks (0 distributed), 1 syncs inserted
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @share_whole_reads_only(%v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %ag, %ap = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %bg, %bp = arts.db_alloc <in> <read> <block> route(%r) sizes[%c2] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %cg, %cp = arts.db_alloc <in> <read> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %dg, %dp = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %a = arts.db_ref %ap[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  memref.store %v, %a[%c0] : memref<?xf32>
  %b = arts.db_ref %bp[%c1] : memref<?xmemref<?xf32>> -> memref<?xf32>
  memref.store %v, %b[%c0] : memref<?xf32>
  %c = arts.db_ref %cp[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  memref.store %v, %c[%c0] : memref<?xf32>
  %d = arts.db_ref %dp[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  memref.store %v, %d[%c0] : memref<?xf32>
  %e = arts.epoch {
    scf.for %k = %c0 to %c2 step %c1 {
      %g1, %p1 = arts.db_acquire <in> (%ag, %ap : memref<?xi64>, memref<?xmemref<?xf32>>)
          : memref<?xi64>, memref<?xmemref<?xf32>>
      %g2, %p2 = arts.db_acquire <in> (%bg, %bp : memref<?xi64>, memref<?xmemref<?xf32>>)
          offsets[%k] sizes[%c1] partition(<block>) : memref<?xi64>, memref<?xmemref<?xf32>>
      %g3, %p3 = arts.db_acquire <in> (%dg, %dp : memref<?xi64>, memref<?xmemref<?xf32>>)
          : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <internode> route(%r) (%p1, %p2, %p3 : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) {
      ^bb0(%v1: memref<?xmemref<?xf32>>, %v2: memref<?xmemref<?xf32>>, %v3: memref<?xmemref<?xf32>>):
        arts.db_release(%v1 : memref<?xmemref<?xf32>>)
        arts.db_release(%v2 : memref<?xmemref<?xf32>>)
        arts.db_release(%v3 : memref<?xmemref<?xf32>>)
      }
    }
    %g4, %p4 = arts.db_acquire <in> (%cg, %cp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p4 : memref<?xmemref<?xf32>>) {
    ^bb0(%v4: memref<?xmemref<?xf32>>):
      arts.db_release(%v4 : memref<?xmemref<?xf32>>)
    }
    %g5, %p5 = arts.db_acquire <inout> (%dg, %dp : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p5 : memref<?xmemref<?xf32>>) {
    ^bb0(%v5: memref<?xmemref<?xf32>>):
      arts.db_release(%v5 : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%ag, %ap : memref<?xi64>, memref<?xmemref<?xf32>>)
  arts.db_free(%bg, %bp : memref<?xi64>, memref<?xmemref<?xf32>>)
  arts.db_free(%cg, %cp : memref<?xi64>, memref<?xmemref<?xf32>>)
  arts.db_free(%dg, %dp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// One node, a table on node 0 written between two epochs: nothing to sync either.
// CHECK-LABEL: func.func @one_node_zero
// CHECK-NOT: arts.db_sync
// DEBUG: [host-sync] {{.*}}: one node: no host sync
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
func.func @one_node_zero(%v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  %blk = arts.db_ref %p[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
  memref.store %v, %blk[%c0] : memref<?xf32>
  %e1 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
}

// -----

// Several nodes and no datablock at all: nothing to do.
// DEBUG: [host-sync] {{.*}}: no datablock: no host sync
module attributes {arts.nodes = 2 : i64, arts.threads = 2 : i64} {
func.func @no_datablock() {
  return
}
}

// -----

// A task whose acquire the host made before the epoch (a taskloop's, created by host code)
// and which writes a distributed table: the host fetches before it reads the table again.
// CHECK-LABEL: func.func @acquired_before_epoch
// CHECK: %[[G:.*]], %[[P:.*]] = arts.db_alloc
// CHECK: arts.db_acquire <concurrent>
// CHECK: arts.epoch
// CHECK: arts.db_sync <fetch> (%[[G]], %[[P]] : memref<?xi64>, memref<?xmemref<?xi64>>)
// CHECK-NEXT: memref.load
module attributes {arts.nodes = 2 : i64, arts.threads = 1 : i64} {
func.func @acquired_before_epoch(%x: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%c2] elementSizes[%c4]
      {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 1 : i64}, distributed}
      : memref<?xi64>, memref<?xmemref<?xi64>>
  %ag, %ap = arts.db_acquire <concurrent> (%g, %p : memref<?xi64>, memref<?xmemref<?xi64>>)
      partition(<block>) {full_range} : memref<?xi64>, memref<?xmemref<?xi64>>
  %e = arts.epoch {
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xi64>>) {
    ^bb0(%view: memref<?xmemref<?xi64>>):
      %blk = arts.db_ref %view[%c1] : memref<?xmemref<?xi64>> -> memref<?xi64>
      memref.store %x, %blk[%c0] : memref<?xi64>
      arts.db_release(%view : memref<?xmemref<?xi64>>)
    }
  }
  %host = arts.db_ref %p[%c1] : memref<?xmemref<?xi64>> -> memref<?xi64>
  %v = memref.load %host[%c0] : memref<?xi64>
  arts.db_free(%g, %p : memref<?xi64>, memref<?xmemref<?xi64>>)
  return %v : i64
}
}
