// arts-epoch-fusion: on one node, adjacent epochs become one when their datablocks already
// order the later tasks after the earlier ones, and a host loop whose body is one epoch gets
// the epoch around it when they order each iteration after the previous one. Two loops
// acquiring one datablock `concurrent` with no other acquire of it surely in between, host
// code with memory effects in the later epoch or between them, and several nodes keep them
// apart. The decisions are printed on the `epochs` channel.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/one.mlir --split-input-file --pass-pipeline='builtin.module(arts-epoch-fusion)' | FileCheck %s
// RUN: carts-opt %t/one.mlir --split-input-file --pass-pipeline='builtin.module(arts-epoch-fusion)' --debug-only=epochs 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/nodes.mlir --pass-pipeline='builtin.module(arts-epoch-fusion)' --debug-only=epochs 2>&1 | FileCheck %s --check-prefix=NODES

//--- one.mlir

// A loop writing a `concurrent`, then loops reading it and writing b `concurrent`: the
// reads wait for the writes through a's datablock, so the three launches share one epoch
// (the constant between the first two moves before it). The third writes b `concurrent`
// again and stays apart.
// CHECK-LABEL: func.func @chain
// CHECK: arith.constant 7 : index
// CHECK-NEXT: arts.epoch {
// CHECK: arts.db_acquire <concurrent> (%[[GA:[^,]*]],
// CHECK: arts.db_acquire <in> (%[[GA]],
// CHECK: arts.db_acquire <concurrent> (%[[GB:[^,]*]],
// CHECK-NOT: arts.epoch
// CHECK: arts.db_release
// CHECK-NEXT: arts.db_release
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: arts.epoch {
// CHECK: arts.db_acquire <concurrent> (%[[GB]],
// DEBUG: [epochs] {{.*}}one.mlir:[[#@LINE+21]]:{{.*}}: epoch fused into the one at {{.*}}one.mlir:[[#@LINE+12]]:{{.*}}: its datablocks order its tasks after the earlier ones
// DEBUG-NEXT: [epochs] {{.*}}one.mlir:[[#@LINE+31]]:{{.*}}: epoch kept apart from the one at {{.*}}one.mlir:[[#@LINE+11]]:{{.*}}: two loops write the datablock of {{.*}}one.mlir:[[#@LINE+9]]:{{.*}} concurrent with nothing ordering them
// DEBUG-NEXT: [epochs] {{.*}}: 1 epochs fused, 0 loops inside one epoch
module attributes {arts.nodes = 1 : i64} {
func.func @chain() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %ag, %ap = arts.db_acquire <concurrent> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  %c7 = arith.constant 7 : index
  %e1 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    %bg, %bp = arts.db_acquire <concurrent> (%gb, %pb : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap, %bp : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) {
    ^bb0(%va: memref<?xmemref<?xf32>>, %vb: memref<?xmemref<?xf32>>):
      arts.db_release(%va : memref<?xmemref<?xf32>>)
      arts.db_release(%vb : memref<?xmemref<?xf32>>)
    }
  }
  %e2 = arts.epoch {
    %bg, %bp = arts.db_acquire <concurrent> (%gb, %pb : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%bp : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  return
}
}

// -----

// Host code between two epochs, or with memory effects inside the later one, keeps them
// apart: it must run after the earlier tasks end.
// CHECK-LABEL: func.func @host_code
// CHECK: arts.epoch {
// CHECK: memref.store
// CHECK-NEXT: arts.epoch {
// CHECK: arts.epoch {
// CHECK-NEXT: memref.store
// DEBUG: [epochs] {{.*}}one.mlir:[[#@LINE+26]]:{{.*}}: epoch kept apart from the one at {{.*}}one.mlir:[[#@LINE+18]]:{{.*}}: its host code memref.store would run before the earlier tasks end
// DEBUG-NEXT: [epochs] {{.*}}: 0 epochs fused, 0 loops inside one epoch
module attributes {arts.nodes = 1 : i64} {
func.func @host_code(%m: memref<f32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  memref.store %v, %m[] : memref<f32>
  %e1 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  %e2 = arts.epoch {
    memref.store %v, %m[] : memref<f32>
    %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  return
}
}

// -----

// concurrent a, read a, concurrent a: the read, which surely runs, orders the second write
// after the first, so the three share an epoch. A read inside a loop that may not run orders
// nothing: the last write stays apart.
// CHECK-LABEL: func.func @separated
// CHECK: arts.epoch {
// CHECK: arts.db_acquire <concurrent>
// CHECK: arts.db_acquire <in>
// CHECK: arts.db_acquire <concurrent>
// CHECK: scf.for
// CHECK-NEXT: arts.db_acquire <in>
// CHECK-NOT: arts.epoch
// CHECK: arts.epoch {
// CHECK-NEXT: arts.db_acquire <concurrent>
// DEBUG: [epochs] {{.*}}one.mlir:[[#@LINE+21]]:{{.*}}: epoch fused into the one at
// DEBUG-NEXT: [epochs] {{.*}}one.mlir:[[#@LINE+28]]:{{.*}}: epoch fused into the one at
// DEBUG-NEXT: [epochs] {{.*}}one.mlir:[[#@LINE+35]]:{{.*}}: epoch fused into the one at
// DEBUG-NEXT: [epochs] {{.*}}one.mlir:[[#@LINE+44]]:{{.*}}: epoch kept apart from the one at {{.*}}: two loops write the datablock of {{.*}} concurrent with nothing ordering them
// DEBUG-NEXT: [epochs] {{.*}}: 3 epochs fused, 0 loops inside one epoch
module attributes {arts.nodes = 1 : i64} {
func.func @separated(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %ag, %ap = arts.db_acquire <concurrent> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  %e1 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  %e2 = arts.epoch {
    %ag, %ap = arts.db_acquire <concurrent> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  %e3 = arts.epoch {
    scf.for %i = %c0 to %n step %c1 {
      %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
          : memref<?xi64>, memref<?xmemref<?xf32>>
      arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
      ^bb0(%view: memref<?xmemref<?xf32>>):
        arts.db_release(%view : memref<?xmemref<?xf32>>)
      }
    }
  }
  %e4 = arts.epoch {
    %ag, %ap = arts.db_acquire <concurrent> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  return
}
}

// -----

// A time loop of a stencil's two sweeps (a -> b, then b -> a; 2 chunks each, so the chunk
// loops surely run): the sweeps share an epoch, and each write is ordered after the
// previous iteration's by a read in between, so the epoch goes around the time loop. A loop
// whose iterations both write one datablock `concurrent` keeps an epoch per iteration.
// CHECK-LABEL: func.func @time_loop
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for
// CHECK-NOT: arts.epoch
// CHECK: arts.db_acquire <in> (%[[GA:[^,]*]],
// CHECK: arts.db_acquire <concurrent> (%[[GB:[^,]*]],
// CHECK: arts.db_acquire <in> (%[[GB]],
// CHECK: arts.db_acquire <concurrent> (%[[GA]],
// CHECK: scf.for
// CHECK-NEXT: arts.epoch {
// DEBUG: [epochs] {{.*}}one.mlir:[[#@LINE+29]]:{{.*}}: epoch fused into the one at
// DEBUG-NEXT: [epochs] {{.*}}one.mlir:[[#@LINE+14]]:{{.*}}: loop inside one epoch: its datablocks order each iteration's tasks after the previous one's
// DEBUG-NEXT: [epochs] {{.*}}one.mlir:[[#@LINE+41]]:{{.*}}: loop keeps an epoch per iteration: two loops write the datablock of {{.*}} concurrent with nothing ordering them
// DEBUG-NEXT: [epochs] {{.*}}: 1 epochs fused, 1 loops inside one epoch
module attributes {arts.nodes = 1 : i64} {
func.func @time_loop(%steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %gb, %pb = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  scf.for %t = %c0 to %steps step %c1 {
    %e0 = arts.epoch {
      scf.for %k = %c0 to %c2 step %c1 {
        %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
            : memref<?xi64>, memref<?xmemref<?xf32>>
        %bg, %bp = arts.db_acquire <concurrent> (%gb, %pb : memref<?xi64>, memref<?xmemref<?xf32>>)
            : memref<?xi64>, memref<?xmemref<?xf32>>
        arts.edt <task> <intranode> route(%r) (%ap, %bp : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) attributes {arts.team_workers = 2 : i64} {
        ^bb0(%va: memref<?xmemref<?xf32>>, %vb: memref<?xmemref<?xf32>>):
          arts.db_release(%va : memref<?xmemref<?xf32>>)
          arts.db_release(%vb : memref<?xmemref<?xf32>>)
        }
      }
    }
    %e1 = arts.epoch {
      scf.for %k = %c0 to %c2 step %c1 {
        %bg, %bp = arts.db_acquire <in> (%gb, %pb : memref<?xi64>, memref<?xmemref<?xf32>>)
            : memref<?xi64>, memref<?xmemref<?xf32>>
        %ag, %ap = arts.db_acquire <concurrent> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
            : memref<?xi64>, memref<?xmemref<?xf32>>
        arts.edt <task> <intranode> route(%r) (%bp, %ap : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) attributes {arts.team_workers = 2 : i64} {
        ^bb0(%vb: memref<?xmemref<?xf32>>, %va: memref<?xmemref<?xf32>>):
          arts.db_release(%vb : memref<?xmemref<?xf32>>)
          arts.db_release(%va : memref<?xmemref<?xf32>>)
        }
      }
    }
  }
  scf.for %t = %c0 to %steps step %c1 {
    %e2 = arts.epoch {
      scf.for %k = %c0 to %c2 step %c1 {
        %ag, %ap = arts.db_acquire <concurrent> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
            : memref<?xi64>, memref<?xmemref<?xf32>>
        arts.edt <task> <intranode> route(%r) (%ap : memref<?xmemref<?xf32>>) attributes {arts.team_workers = 2 : i64} {
        ^bb0(%va: memref<?xmemref<?xf32>>):
          arts.db_release(%va : memref<?xmemref<?xf32>>)
        }
      }
    }
  }
  return
}
}

//--- nodes.mlir

// Several nodes fuse as one does: the owner of %ga queues both tasks' requests in the
// order this node registered them.
// NODES: [epochs] {{.*}}nodes.mlir:{{[0-9]+}}:9: epoch fused into the one at {{.*}}nodes.mlir:{{[0-9]+}}:9: its datablocks order its tasks after the earlier ones
// NODES: arts.epoch {
// NODES-NOT: arts.epoch {
module attributes {arts.nodes = 2 : i64} {
func.func @two(%n: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = arith.constant 0 : i32
  %ga, %pa = arts.db_alloc <inout> <write> <coarse> route(%r) sizes[%c1] elementSizes[%c4]
      : memref<?xi64>, memref<?xmemref<?xf32>>
  %e0 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  %e1 = arts.epoch {
    %ag, %ap = arts.db_acquire <in> (%ga, %pa : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <internode> route(%r) (%ap : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
  }
  return
}
}
