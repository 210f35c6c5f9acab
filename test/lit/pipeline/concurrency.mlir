// Exit invariants of the concurrency stage on batchnorm: the machine the runtime will read
// (here env threads=2 nodeCount=1) is recorded on the module, and every parallel task (its
// five loops fused into two by arts-loop-fusion) gets that many workers on one node.
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.bn.mlir
// RUN: env threads=2 nodeCount=1 carts-opt %t.bn.mlir --concurrency | FileCheck %s
// RUN: env threads=3 nodeCount=2 carts-opt %t.bn.mlir --concurrency | FileCheck %s --check-prefix=NODES

// CHECK: module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64}
// CHECK-COUNT-2: arts.edt <parallel> <intranode> {{.*}}workers = 2
// CHECK-NOT: arts.edt <parallel>

// Two nodes of three workers: the loops may span the nodes.
// NODES: module attributes {arts.nodes = 2 : i64, arts.threads = 3 : i64}
// NODES-COUNT-2: arts.edt <parallel> <internode> {{.*}}workers = 6
