// Exit invariants of the openmp-to-arts stage on front-end output of the examples: no omp op
// is left, every parallel loop is an arts.for inside a parallel task, and the stage output
// re-parses. The stages before it are not part of this check (--start-from).
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.bn.mlir
// RUN: carts-opt %t.bn.mlir --start-from=openmp-to-arts --openmp-to-arts -o %t.bn.arts.mlir
// RUN: FileCheck %s --check-prefix=BN --implicit-check-not=omp. < %t.bn.arts.mlir
// RUN: carts-opt %t.bn.arts.mlir --mlir-print-debuginfo | carts-opt | FileCheck %s --check-prefix=BN
// RUN: carts-opt %t.bn.mlir --start-from=openmp-to-arts --openmp-to-arts --debug-only=openmp-to-arts 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts cgeist %examples/llama2-transformer/transformer.c -DMINI_DATASET -I %examples/include -fopenmp -S | carts-opt --start-from=openmp-to-arts --openmp-to-arts | FileCheck %s --check-prefix=TF --implicit-check-not=omp.

// batchnorm: five separate parallel loops (mean, variance, normalize+scale+bias).
// BN-COUNT-5: arts.edt <parallel> <intranode> route(%{{.*}}) attributes {no_verify} {
// BN-NOT: arts.edt <parallel>

// Every converted loop names its C source line.
// DEBUG: [openmp-to-arts] {{.*}}batchnorm.c:[[#]]:[[#]]: omp.parallel -> arts.edt <parallel>
// DEBUG: [openmp-to-arts] {{.*}}batchnorm.c:[[#]]:[[#]]: omp.wsloop -> arts.for schedule=static

// transformer: the matmul, rmsnorm, attention and FFN loops are all work-sharing loops.
// TF: arts.edt <parallel>
// TF: arts.for (%{{.*}}) to (%{{.*}}) step (%{{.*}}) schedule(<static>)
// TF: arts.barrier
