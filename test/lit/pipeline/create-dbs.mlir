// Exit invariants of the create-dbs stage on batchnorm (the stages up to it, one node of 2
// workers): every array a task touches is a coarse datablock, no task reaches memory other
// than through its acquires (arts-verify-edt-deps runs in the stage), the writes are inout
// and the input stays in, and the output re-parses.
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.bn.mlir
// RUN: env threads=2 nodeCount=1 carts-opt %t.bn.mlir --create-dbs -o %t.dbs.mlir
// RUN: FileCheck %s --implicit-check-not=memref.alloc( < %t.dbs.mlir
// RUN: carts-opt %t.dbs.mlir --mlir-print-debuginfo | carts-opt | FileCheck %s

// input (read only), output, mean and variance (written by the kernels), gamma and beta
// (only read).
// CHECK: arts.db_alloc <in> <read> <coarse> {{.*}}elementSizes[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: arts.db_alloc <inout> <write> <coarse> {{.*}}elementSizes[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK-COUNT-2: arts.db_alloc <inout> <write> <coarse> {{.*}}elementSizes[%{{.*}}]
// CHECK-COUNT-2: arts.db_alloc <in> <read> <coarse> {{.*}}elementSizes[%{{.*}}]
// CHECK-NOT: arts.db_alloc
// The two parallel loops (of five, fused by arts-loop-fusion) each acquire what they read
// and write.
// CHECK-COUNT-2: arts.edt <parallel> <intranode>
// CHECK-NOT: arts.edt <parallel>
// CHECK: arts.db_free
