// arts-loop-fusion: adjacent `parallel for` tasks over the same iterations become one loop
// when the second reads what the first writes and every access pair with a write among them
// touches, in both loops, an allocation at the iteration's own index (for each level of a
// collapse nest); anything else (another index, a memref that may alias, a call, loops that
// share nothing written) keeps them apart. Decisions on the `loop-fusion` channel.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-loop-fusion)' | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-loop-fusion)' --debug-only=loop-fusion 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// Three loops: a[i] = x, b[i] = a[i] + 1 (its own element of a), then c[i] = b[i] * a[i]:
// one task, one loop, the bodies in order on one induction variable; the constant between
// the tasks moves above. The barrier stays.
// CHECK-LABEL: func.func @chain
// CHECK: arith.constant 1 : i32
// CHECK-NEXT: arts.edt <parallel>
// CHECK-NEXT: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<static>) {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: memref.store %{{.*}}, %[[A:.*]][%[[I]]]
// CHECK-NEXT: memref.load %[[A]][%[[I]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[B:.*]][%[[I]]]
// CHECK-NEXT: memref.load %[[B]][%[[I]]]
// CHECK-NEXT: memref.load %[[A]][%[[I]]]
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: arts.barrier
// CHECK-NEXT: }
// CHECK-NOT: arts.edt
// DEBUG: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+19]]:{{.*}}: fused into the loop at {{.*}}loop-fusion.mlir:[[#@LINE+11]]:
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+27]]:{{.*}}: fused into the loop at {{.*}}loop-fusion.mlir:[[#@LINE+10]]:
func.func @chain(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = arith.constant 0 : i32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      memref.store %x, %a[%i] : memref<?xf32>
    }
    arts.barrier
  }
  %r1 = arith.constant 1 : i32
  arts.edt <parallel> <intranode> route(%r1) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %v = memref.load %a[%i] : memref<?xf32>
      %w = arith.addf %v, %one : f32
      memref.store %w, %b[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %v = memref.load %b[%i] : memref<?xf32>
      %u = memref.load %a[%i] : memref<?xf32>
      %w = arith.mulf %v, %u : f32
      memref.store %w, %c[%i] : memref<?xf32>
    }
    arts.barrier
  }
  return
}

// -----

// The second loop reads all of a (a dot product), which the first writes by element: apart.
// CHECK-LABEL: func.func @reads_every_element
// CHECK-COUNT-2: arts.edt <parallel>
// DEBUG: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+16]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+9]]:{{.*}}: the allocation at {{.*}}loop-fusion.mlir:[[#@LINE+6]]:{{.*}} is written by one loop and accessed by the other at an index that is not the iteration's own
func.func @reads_every_element(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = arith.constant 0 : i32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      memref.store %x, %a[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %a[%j] : memref<?xf32>
        %t = arith.addf %acc, %v : f32
        scf.yield %t : f32
      }
      memref.store %s, %b[%i] : memref<?xf32>
    }
    arts.barrier
  }
  return
}

// -----

// Other bounds, a memref argument written (it may be a), a call (on either side), and a loop
// reading nothing the one before writes (b after a: independent loops run side by side
// anyway): kept apart. The last loop reads the b the one before it writes: fused.
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-5: arts.edt <parallel>
// CHECK: arts.edt <parallel>
// CHECK-NEXT: arts.for
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: memref.store %{{.*}}, %[[B:.*]][%[[I]]]
// CHECK-NEXT: memref.load %[[B]][%[[I]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[B]][%[[I]]]
// CHECK-NOT: arts.edt
// DEBUG: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+21]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+14]]:{{.*}}: other bounds or schedule
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+27]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+20]]:{{.*}}: a memref argument may be the memory of the allocation at {{.*}}loop-fusion.mlir:[[#@LINE+10]]:{{.*}}, and one of the loops writes it
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+33]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+26]]:{{.*}}: 'func.call' at {{.*}}loop-fusion.mlir:[[#@LINE+35]]:{{.*}} has memory effects
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+39]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+32]]:{{.*}}: 'func.call' at {{.*}}loop-fusion.mlir:[[#@LINE+34]]:{{.*}} has memory effects
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+45]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+38]]:{{.*}}: it reads nothing the first loop writes (independent loops already run side by side; one loop would only make fewer, larger tasks)
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+51]]:{{.*}}: fused into the loop at {{.*}}loop-fusion.mlir:[[#@LINE+44]]:
func.func private @touch(memref<?xf32>)
func.func @kept_apart(%x: f32, %n: index, %m: index, %arg: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      memref.store %x, %a[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%m) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      memref.store %x, %a[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%m) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      memref.store %x, %arg[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%m) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      func.call @touch(%b) : (memref<?xf32>) -> ()
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%m) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      memref.store %x, %a[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%m) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      memref.store %x, %b[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%m) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %v = memref.load %b[%i] : memref<?xf32>
      %w = arith.addf %v, %x : f32
      memref.store %w, %b[%i] : memref<?xf32>
    }
    arts.barrier
  }
  return
}

// -----

// h1 = W1 x and h3 = W3 x share nothing written (one epoch runs them side by side); the
// next loop, h1 = silu(h1) * h3, reads both. Fused into W3's loop it would make W3's tasks
// wait for W1's: kept apart. The loop after it (the elementwise use of h1) reads what it
// writes and nothing W3's loop does not order: fused into it.
// CHECK-LABEL: func.func @side_by_side
// CHECK-COUNT-3: arts.edt <parallel>
// CHECK-NOT: arts.edt
// DEBUG: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+21]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+13]]:{{.*}}: it reads nothing the first loop writes
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+28]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+20]]:{{.*}}: it also depends on the loop at {{.*}}loop-fusion.mlir:[[#@LINE+12]]:{{.*}}, which this one does not: fused, this loop would wait for that one instead of running beside it
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+37]]:{{.*}}: fused into the loop at {{.*}}loop-fusion.mlir:[[#@LINE+27]]:
func.func @side_by_side(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %r = arith.constant 0 : i32
  %x = memref.alloc(%n) : memref<?xf32>
  %h1 = memref.alloc(%n) : memref<?xf32>
  %h3 = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %h1[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %h3[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %a = memref.load %h1[%i] : memref<?xf32>
      %b = memref.load %h3[%i] : memref<?xf32>
      %m = arith.mulf %a, %b : f32
      memref.store %m, %h1[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %a = memref.load %h1[%i] : memref<?xf32>
      %s = arith.addf %a, %one : f32
      memref.store %s, %y[%i] : memref<?xf32>
    }
    arts.barrier
  }
  return
}

// -----

// collapse(2) nests over (i, j): out[i][j] = x[i][j] * 2, then out[i][j] += 1 (both levels
// the iteration's own) fuse into one nest, per-iteration scopes merged into one; a third
// nest reading out[j][i] does not (transposed: not the same element at both levels).
// CHECK-LABEL: func.func @collapsed
// CHECK: arts.edt <parallel>
// CHECK-NEXT: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<static>) {
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: memref.alloca()
// CHECK: memref.store %{{.*}}, %[[OUT:.*]][%[[I]], %[[J]]]
// CHECK-NEXT: memref.alloca()
// CHECK-NEXT: memref.load %[[OUT]][%[[I]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[I]], %[[J]]]
// CHECK-NEXT: }
// CHECK-NEXT: } {arts.collapsed}
// CHECK-NEXT: }
// CHECK-NEXT: arts.barrier
// CHECK-NEXT: }
// CHECK-NEXT: arts.edt <parallel>
// CHECK-NOT: arts.edt
// DEBUG: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+27]]:{{.*}}: fused into the loop at {{.*}}loop-fusion.mlir:[[#@LINE+12]]:
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+41]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+11]]:{{.*}}: the allocation at {{.*}}loop-fusion.mlir:[[#@LINE+8]]:{{.*}} is written by one loop and accessed by the other at an index that is not the iteration's own
func.func @collapsed(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %r = arith.constant 0 : i32
  %x = memref.alloc(%n, %n) : memref<?x?xf32>
  %out = memref.alloc(%n, %n) : memref<?x?xf32>
  %t = memref.alloc(%n, %n) : memref<?x?xf32>
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %n step %c1 {
        memref.alloca_scope {
          %p = memref.alloca() : memref<f32>
          %v = memref.load %x[%i, %j] : memref<?x?xf32>
          %w = arith.mulf %v, %two : f32
          memref.store %w, %p[] : memref<f32>
          memref.store %w, %out[%i, %j] : memref<?x?xf32>
        }
      } {arts.collapsed}
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %n step %c1 {
        memref.alloca_scope {
          %p = memref.alloca() : memref<f32>
          %v = memref.load %out[%i, %j] : memref<?x?xf32>
          %w = arith.addf %v, %one : f32
          memref.store %w, %p[] : memref<f32>
          memref.store %w, %out[%i, %j] : memref<?x?xf32>
        }
      } {arts.collapsed}
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      scf.for %j = %c0 to %n step %c1 {
        %v = memref.load %out[%j, %i] : memref<?x?xf32>
        memref.store %v, %t[%i, %j] : memref<?x?xf32>
      } {arts.collapsed}
    }
    arts.barrier
  }
  return
}

// -----

// A task's own copy of a value before its loop (`firstprivate`: an alloca, the load of what
// it copies, the store) moves before the fused loop, after the first task's own copy. A copy
// of what the first loop writes (s, stored by iteration 0) would be read before that write
// once fused: the third task stays apart.
// CHECK-LABEL: func.func @copies
// CHECK: arts.edt <parallel>
// CHECK-NEXT: %[[P1:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store %{{.*}}, %[[P1]][]
// CHECK-NEXT: %[[P2:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store %{{.*}}, %[[P2]][]
// CHECK-NEXT: arts.for
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: memref.load %[[P1]][]
// CHECK-NEXT: memref.store %{{.*}}, %[[A:.*]][%[[I]]]
// CHECK: scf.if
// CHECK: memref.load %[[P2]][]
// CHECK-NEXT: memref.load %[[A]][%[[I]]]
// CHECK: arts.barrier
// CHECK-NEXT: }
// CHECK-NEXT: arts.edt <parallel>
// CHECK-NOT: arts.edt
// DEBUG: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+30]]:{{.*}}: fused into the loop at {{.*}}loop-fusion.mlir:[[#@LINE+15]]:
// DEBUG-NEXT: [loop-fusion] {{.*}}loop-fusion.mlir:[[#@LINE+42]]:{{.*}}: not fused with the loop at {{.*}}loop-fusion.mlir:[[#@LINE+14]]:{{.*}}: the second task copies the allocation at {{.*}}loop-fusion.mlir:[[#@LINE+9]]:{{.*}} before its loop, and the first loop may write it
func.func @copies(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant 0 : i32
  %eps = memref.alloca() : memref<f32>
  %scale = memref.alloca() : memref<f32>
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %s = memref.alloc() : memref<f32>
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    %p = memref.alloca() : memref<f32>
    %v = memref.load %eps[] : memref<f32>
    memref.store %v, %p[] : memref<f32>
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %e = memref.load %p[] : memref<f32>
      memref.store %e, %a[%i] : memref<?xf32>
      %z = arith.cmpi eq, %i, %c0 : index
      scf.if %z {
        memref.store %e, %s[] : memref<f32>
      }
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    %p = memref.alloca() : memref<f32>
    %v = memref.load %scale[] : memref<f32>
    memref.store %v, %p[] : memref<f32>
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %f = memref.load %p[] : memref<f32>
      %x = memref.load %a[%i] : memref<?xf32>
      %y = arith.mulf %x, %f : f32
      memref.store %y, %b[%i] : memref<?xf32>
    }
    arts.barrier
  }
  arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
    %p = memref.alloca() : memref<f32>
    %v = memref.load %s[] : memref<f32>
    memref.store %v, %p[] : memref<f32>
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      %f = memref.load %p[] : memref<f32>
      memref.store %f, %b[%i] : memref<?xf32>
    }
    arts.barrier
  }
  return
}

