// Exit invariants of the last stage on batchnorm (one node of 2 workers): only the LLVM
// dialect is left, the user's main is mainBody behind the generated artsMain and main, the
// two tasks (its five loops are two after arts-loop-fusion) are EDT functions, and every
// runtime call is declared once.
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.bn.mlir
// RUN: env threads=2 nodeCount=1 carts-opt %t.bn.mlir --arts-to-llvm -o %t.ll.mlir
// RUN: FileCheck %s --implicit-check-not='arts.edt ' --implicit-check-not=arts.edt_create --implicit-check-not=arts.db_ --implicit-check-not=arts.rec_dep --implicit-check-not=arts.dep_gep --implicit-check-not=arts.epoch --implicit-check-not=arts.create_epoch --implicit-check-not=arts.wait_on_epoch --implicit-check-not=memref. --implicit-check-not=scf. --implicit-check-not=func.func --implicit-check-not=arith. < %t.ll.mlir
// RUN: FileCheck %s --check-prefix=CALLS --implicit-check-not=@artsRecordDep --implicit-check-not=@artsEdtCreateWithEpoch < %t.ll.mlir

// The tasks keep their mark (attributes are all that is left of the ARTS dialect).
// CHECK-DAG: llvm.func @__arts_edt_0({{.*}}arts.edt_function
// CHECK-DAG: llvm.func @__arts_edt_1(
// CHECK-DAG: llvm.func @mainBody(
// CHECK-DAG: llvm.func @artsMain(
// CHECK-DAG: llvm.func @main(

// CALLS-COUNT-1: llvm.func @artsRT(
// CALLS-NOT: llvm.func @artsRT(
// Each task is created with its datablocks in one call.
// CALLS-DAG: llvm.call @artsEdtCreateWithDbs(
// CALLS-DAG: llvm.call @artsWaitOnHandle(
