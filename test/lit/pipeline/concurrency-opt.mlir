// Exit invariants of concurrency and concurrency-opt on batchnorm (mini, 2 workers): after
// --concurrency the loops are still arts.for; after --concurrency-opt each loop is one task
// per chunk inside an epoch, and the datablock decisions are the ones the seed's grep
// commands look for (partition, full-range, mode), including the second datablock run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t/bn.mlir
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency | FileCheck %s --check-prefix=CONC
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency --debug-only=for_lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=ROUTE
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency-opt | FileCheck %s --check-prefix=OPT --implicit-check-not=arts.for
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency-opt --debug-only=db,db_partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DB

// CONC-COUNT-5: arts.for
// CONC-NOT: arts.edt <task>

// ROUTE-COUNT-5: [for_lowering] {{.*}}batchnorm.c:{{.*}}: arts.for planned: workers=2 (2 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 2)) % 1 distributed=no (one node)

// OPT-COUNT-5: arts.epoch {
// OPT: arts.edt <task> <intranode>
// OPT: } {arts.chunk_loop}

// x and out are split by their first dimension (normalize/scale/bias chunk it), mean and
// variance by channel (their loops chunk it); mean/variance loops read x full-range.
// DB: [db_partitioning] {{.*}}batchnorm.c:{{.*}}: alloc memref<2x4x64xf32> -> partition=block
// DB: [db_partitioning] {{.*}}: acquire mode=in partition=block full-range (index not derived from the chunk)
// DB: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=block
// DB: [db_partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk
// gamma and beta are read whole by every chunk.
// DB: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
// The second datablock run reports the final acquires.
// DB: [db] {{.*}}: acquire memref<?xmemref<?x4x64xf32>> mode=in partition=block full-range
// DB: [db] {{.*}}: acquire memref<?xmemref<?xf32>> mode=out partition=block offsets=1d
