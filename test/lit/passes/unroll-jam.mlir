// arts-unroll-jam: a chunk loop around an inner loop that collect-metadata classified
// `reduction` runs four iterations through one inner loop (four independent chains), and a
// loop of two at a time and the original loop run the iterations left over; each
// iteration's operations keep their
// order. So does a chunk loop whose inner loop holds a loop reading what every row reads
// (`B[k][j]` of a row-times-matrix product), each inner loop of its body jammed in turn. A
// loop with neither, that stores to one place in every iteration, or that calls something,
// stays as it is. Decisions on the `unroll-jam` channel.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-unroll-jam)' | FileCheck %s
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-unroll-jam)' --debug-only=unroll-jam 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// y[i] = sum_j w[i][j] * x[j] over one chunk [lo, hi): the main loop steps by 4 up to
// lo + 4 * ((hi - lo) / 4); its body makes four accumulators, one inner loop updates each
// in turn (iteration i's load, multiply, add and store, then i+1's, ...), and four stores
// follow. A loop of two at a time takes what is left, and the original loop the last one.
// CHECK-LABEL: func.func @matvec
// CHECK-SAME: (%[[W:.*]]: memref<64x32xf32>, %[[X:.*]]: memref<32xf32>, %[[Y:.*]]: memref<64xf32>, %[[LO:.*]]: index, %[[HI:.*]]: index)
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[SPAN:.*]] = arith.muli %{{.*}}, %[[C4]] : index
// CHECK: %[[EXTENT:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK: %[[POS:.*]] = arith.maxsi %[[EXTENT]], %{{.*}} : index
// CHECK: %[[QUOT:.*]] = arith.divsi %[[POS]], %[[SPAN]] : index
// CHECK: %[[WHOLE:.*]] = arith.muli %[[QUOT]], %[[SPAN]] : index
// CHECK: %[[MAIN:.*]] = arith.addi %[[LO]], %[[WHOLE]] : index
// CHECK: scf.for %[[I:.*]] = %[[LO]] to %[[MAIN]] step %[[SPAN]] {
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[I2:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[I3:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[A0:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: %[[A1:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: %[[A2:.*]] = memref.alloca() : memref<f32>
// CHECK-NEXT: %[[A3:.*]] = memref.alloca() : memref<f32>
// CHECK: scf.for %[[J:.*]] =
// CHECK-NEXT: memref.load %[[W]][%[[I]], %[[J]]]
// CHECK-NEXT: memref.load %[[X]][%[[J]]]
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: memref.load %[[A0]][]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[A0]][]
// CHECK-NEXT: memref.load %[[W]][%[[I1]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[A1]][]
// CHECK-NEXT: memref.load %[[W]][%[[I2]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[A2]][]
// CHECK-NEXT: memref.load %[[W]][%[[I3]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[A3]][]
// CHECK-NEXT: } {arts.metadata = {class = "reduction"}}
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I]]]
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I1]]]
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I2]]]
// CHECK: memref.store %{{.*}}, %[[Y]][%[[I3]]]
// CHECK-NEXT: } {arts.chunk_loop, arts.unroll_jam = 4 : i64}
// CHECK: %[[MAIN2:.*]] = arith.addi %[[MAIN]], %{{.*}} : index
// CHECK: scf.for %{{.*}} = %[[MAIN]] to %[[MAIN2]] step %{{.*}} {
// CHECK-COUNT-2: memref.alloca() : memref<f32>
// CHECK: } {arts.chunk_loop, arts.unroll_jam = 2 : i64}
// CHECK-NEXT: scf.for %{{.*}} = %[[MAIN2]] to %[[HI]] step %{{.*}} {
// CHECK: } {arts.chunk_loop}
// DEBUG: [unroll-jam] {{.*}}unroll-jam.mlir:[[#@LINE+6]]:{{.*}}: chunk loop jammed by 4: its inner loop at {{.*}}unroll-jam.mlir:[[#@LINE+9]]:{{.*}} is a reduction chain
func.func @matvec(%w: memref<64x32xf32>, %x: memref<32xf32>, %y: memref<64xf32>, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %lo to %hi step %c1 {
    %acc = memref.alloca() : memref<f32>
    memref.store %zero, %acc[] : memref<f32>
    scf.for %j = %c0 to %c32 step %c1 {
      %a = memref.load %w[%i, %j] : memref<64x32xf32>
      %b = memref.load %x[%j] : memref<32xf32>
      %p = arith.mulf %a, %b : f32
      %s = memref.load %acc[] : memref<f32>
      %t = arith.addf %s, %p : f32
      memref.store %t, %acc[] : memref<f32>
    } {arts.metadata = {class = "reduction"}}
    %r = memref.load %acc[] : memref<f32>
    memref.store %r, %y[%i] : memref<64xf32>
  } {arts.chunk_loop}
  return
}

// -----

// An inner loop collect-metadata found parallel (y[i][j] = x[j]) has no chain to overlap.
// CHECK-LABEL: func.func @not_a_reduction
// CHECK-NOT: arts.unroll_jam
// DEBUG: [unroll-jam] {{.*}}unroll-jam.mlir:[[#@LINE+5]]:{{.*}}: chunk loop kept: no inner loop is a reduction chain or shares what a nested loop reads (first at {{.*}}, collect-metadata: 'parallel')
func.func @not_a_reduction(%x: memref<32xf32>, %y: memref<64x32xf32>, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %lo to %hi step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %a = memref.load %x[%j] : memref<32xf32>
      memref.store %a, %y[%i, %j] : memref<64x32xf32>
    } {arts.metadata = {class = "parallel"}}
  } {arts.chunk_loop}
  return
}

// -----

// A partial sum every iteration adds to (what a reduction clause leaves in a chunk) orders
// the iterations: kept. No loop facts at all: kept too.
// CHECK-LABEL: func.func @one_place
// CHECK-NOT: arts.unroll_jam
// DEBUG: [unroll-jam] {{.*}}unroll-jam.mlir:[[#@LINE+6]]:{{.*}}: chunk loop kept: the store at {{.*}}unroll-jam.mlir:[[#@LINE+11]]:{{.*}} writes one place in every iteration
// DEBUG: [unroll-jam] {{.*}}unroll-jam.mlir:[[#@LINE+16]]:{{.*}}: chunk loop kept: no inner loop is a reduction chain or shares what a nested loop reads (first at {{.*}}, collect-metadata: '')
func.func @one_place(%w: memref<64x32xf32>, %partial: memref<f32>, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %lo to %hi step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %a = memref.load %w[%i, %j] : memref<64x32xf32>
      %s = memref.load %partial[] : memref<f32>
      %t = arith.addf %s, %a : f32
      memref.store %t, %partial[] : memref<f32>
    } {arts.metadata = {class = "reduction"}}
    %r = memref.load %partial[] : memref<f32>
    %d = arith.addf %r, %r : f32
    memref.store %d, %partial[] : memref<f32>
  } {arts.chunk_loop}
  scf.for %i = %lo to %hi step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %a = memref.load %w[%i, %j] : memref<64x32xf32>
      memref.store %a, %partial[] : memref<f32>
    }
  } {arts.chunk_loop}
  return
}

// -----

// A call in the body may touch anything: kept.
// CHECK-LABEL: func.func @calls
// CHECK-NOT: arts.unroll_jam
// DEBUG: [unroll-jam] {{.*}}unroll-jam.mlir:[[#@LINE+7]]:{{.*}}: chunk loop kept: 'func.call' at {{.*}} has memory effects or a region
func.func private @log(f32)
func.func @calls(%w: memref<64x32xf32>, %y: memref<64xf32>, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %lo to %hi step %c1 {
    %acc = memref.alloca() : memref<f32>
    memref.store %zero, %acc[] : memref<f32>
    scf.for %j = %c0 to %c32 step %c1 {
      %a = memref.load %w[%i, %j] : memref<64x32xf32>
      %s = memref.load %acc[] : memref<f32>
      %t = arith.addf %s, %a : f32
      memref.store %t, %acc[] : memref<f32>
    } {arts.metadata = {class = "reduction"}}
    %r = memref.load %acc[] : memref<f32>
    func.call @log(%r) : (f32) -> ()
    memref.store %r, %y[%i] : memref<64xf32>
  } {arts.chunk_loop}
  return
}

// -----

// C[i][j] = beta * C[i][j], then C[i][j] += A[i][k] * B[k][j] over k and j (gemm's row
// form): the k loop holds the j loop, whose B[k][j] is the same for every row, so four
// rows run through each inner loop in turn: the scaling loop holds the four rows' scalings,
// the k loop the four rows' j loops, which share the row of B from the first-level cache.
// CHECK-LABEL: func.func @gemm_rows
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-COUNT-4: arith.mulf
// CHECK: }
// CHECK-NEXT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<16x16xf64>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: } {arts.chunk_loop, arts.unroll_jam = 4 : i64}
// DEBUG: [unroll-jam] {{.*}}unroll-jam.mlir:[[#@LINE+6]]:{{.*}}: chunk loop jammed by 4: its inner loop at {{.*}}unroll-jam.mlir:[[#@LINE+12]]:{{.*}} holds a loop reading, at {{.*}}unroll-jam.mlir:[[#@LINE+15]]:{{.*}}, what every row reads
func.func @gemm_rows(%a: memref<16x16xf64>, %b: memref<16x16xf64>, %c: memref<16x16xf64>, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %beta = arith.constant 1.2 : f64
  scf.for %i = %lo to %hi step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %x = memref.load %c[%i, %j] : memref<16x16xf64>
      %y = arith.mulf %x, %beta : f64
      memref.store %y, %c[%i, %j] : memref<16x16xf64>
    } {arts.metadata = {class = "parallel"}}
    scf.for %k = %c0 to %c16 step %c1 {
      %aik = memref.load %a[%i, %k] : memref<16x16xf64>
      scf.for %j = %c0 to %c16 step %c1 {
        %bkj = memref.load %b[%k, %j] : memref<16x16xf64>
        %p = arith.mulf %aik, %bkj : f64
        %old = memref.load %c[%i, %j] : memref<16x16xf64>
        %new = arith.addf %old, %p : f64
        memref.store %new, %c[%i, %j] : memref<16x16xf64>
      }
    } {arts.metadata = {class = "unknown"}}
  } {arts.chunk_loop}
  return
}
