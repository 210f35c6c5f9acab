// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -fopenmp -S --print-debug-info -DMINI_DATASET -I %examples/include | FileCheck %s
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -S -DMINI_DATASET -I %examples/include | FileCheck %s --check-prefix=SEQ

// The seed's batchnorm kernel (seed 000): float *** tensors from cube_tables.h's alloc_3d, one
// omp.parallel + omp.wsloop per parallel loop, every op located in batchnorm.c.

// CHECK-LABEL: func.func private @bn_mean(
// CHECK: omp.parallel {
// CHECK: omp.wsloop {
// CHECK: omp.loop_nest (%{{.*}}) : index
// CHECK: omp.terminator loc(#[[MEAN:loc[0-9]+]])

// CHECK-LABEL: func.func private @bn_variance(
// CHECK: omp.wsloop schedule(static) {

// private(inv) is a per-thread alloca; collapse(2) gives a two-dimensional nest.
// CHECK-LABEL: func.func private @bn_normalize(
// CHECK: omp.parallel {
// CHECK-NEXT: memref.alloca() : memref<f32>
// CHECK: omp.loop_nest (%{{.*}}, %{{.*}}) : index
// CHECK: math.sqrt

// CHECK-LABEL: func.func private @bn_scale(
// CHECK: omp.wsloop schedule(static) {
// CHECK: omp.loop_nest (%{{.*}}, %{{.*}}) : index

// CHECK-LABEL: func.func private @bn_bias(
// CHECK: omp.loop_nest (%{{.*}}, %{{.*}}) : index

// CHECK-LABEL: func.func @main()
// CHECK: call @alloc_3d
// CHECK: call @bn_mean
// CHECK: call @free_3d

// The header's functions follow the file's own.
// CHECK-LABEL: func.func private @alloc_3d(
// CHECK-SAME: -> memref<?xmemref<?xmemref<?xf32>>>

// The omp.parallel of bn_mean is located at its pragma (column 1).
// CHECK: #[[MEAN]] = loc("{{.*}}batchnorm.c":{{[0-9]+}}:1)

// SEQ-NOT: omp.
// SEQ-LABEL: func.func private @bn_mean(
// SEQ: scf.for
