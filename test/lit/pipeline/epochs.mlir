// Exit invariants of the epochs stage on batchnorm (one node of 2 workers): no barrier is
// left, the chunk tasks of its loops (five, fused into two by arts-loop-fusion) run in
// epochs, and on one node the loops whose datablocks order their tasks share an epoch. At
// this size every loop is one chunk, whose writes are exclusive (`out`/`inout`, not
// `concurrent`), so the second is ordered after the first and both share one epoch. The
// output re-parses.
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.bn.mlir
// RUN: env threads=2 nodeCount=1 carts-opt %t.bn.mlir --epochs -o %t.ep.mlir
// RUN: FileCheck %s --implicit-check-not=arts.barrier --implicit-check-not='arts.edt <parallel>' < %t.ep.mlir
// RUN: carts-opt %t.ep.mlir --mlir-print-debuginfo | carts-opt | FileCheck %s

// CHECK: arts.epoch {
// CHECK-COUNT-2: arts.edt <task> <intranode>
// CHECK-NOT: arts.edt
// CHECK-NOT: arts.epoch
