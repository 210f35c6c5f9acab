// Exit invariants of the concurrency stage on batchnorm: the machine the runtime will read
// (here env threads=2 nodeCount=1) is recorded on the module, and every parallel task (its
// five loops fused into two by arts-loop-fusion) gets that many workers on one node.
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.bn.mlir
// RUN: env threads=2 nodeCount=1 carts-opt %t.bn.mlir --concurrency | FileCheck %s
// RUN: env threads=3 nodeCount=2 nodeMinOps=0 carts-opt %t.bn.mlir --concurrency | FileCheck %s --check-prefix=NODES

// CHECK: module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64}
// CHECK-COUNT-2: arts.edt <parallel> <intranode> {{.*}}workers = 2
// CHECK-NOT: arts.edt <parallel>

// Two nodes of three workers: the loops may span the nodes.
// NODES: module attributes {arts.nodes = 2 : i64, arts.threads = 3 : i64}
// NODES-COUNT-2: arts.edt <parallel> <internode> {{.*}}workers = 6

// Batchnorm's mini loops weigh a few thousand operations, less than an epoch across nodes
// costs: by default (min-node-ops) both tasks stay on node 0, and the debug line says why.
// A bad nodeMinOps is a located error.
// RUN: env threads=3 nodeCount=2 carts-opt %t.bn.mlir --concurrency --debug-only=concurrency 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: env threads=3 nodeCount=2 nodeMinOps=100 carts-opt %t.bn.mlir --concurrency | FileCheck %s --check-prefix=NODES
// RUN: env threads=3 nodeCount=2 nodeMinOps=lots not carts-opt %t.bn.mlir --concurrency 2>&1 | FileCheck %s --check-prefix=BADENV
// SMALL-COUNT-2: [concurrency] {{.*}}batchnorm.c:{{[0-9]+}}:{{[0-9]+}}: parallel task workers=6 threads=3 nodes=2 intranode ({{.*}}) on node 0: its loops weigh {{[0-9]+}} operations, fewer than min-node-ops=262144 (an epoch across nodes costs more than that work)
// SMALL-COUNT-2: arts.edt <parallel> <intranode> {{.*}}workers = 6
// BADENV: error: environment variable nodeMinOps must be an integer in 0..{{[0-9]+}}, got 'lots'
// The drivers read arts.cfg once, for the stages: a bad value is an error at its line.
// RUN: printf '[ARTS]\nthreads = many\n' > %t.bad.cfg
// RUN: env artsConfig=%t.bad.cfg not carts-opt %t.bn.mlir --concurrency 2>&1 | FileCheck %s --check-prefix=BADCFG
// BADCFG: {{.*}}bad.cfg:2: error: threads must be an integer in 1..4096, got 'many'
