// Exit invariants of concurrency and concurrency-opt on batchnorm (mini, 2 workers): after
// --concurrency the loops are still arts.for; after --concurrency-opt each loop is one task
// per chunk inside an epoch, and the datablock decisions are the ones the seed's grep
// commands look for (partition, full-range, mode), including the second datablock run.
// Mini loops are too small to feed two workers, so each gets a single chunk; with 8 images
// (BN_N=8) the image loops keep their static shares, and on two nodes the channel arrays
// are split too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t/bn.mlir
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -DBN_N=8 -I %examples/include -fopenmp --print-debug-info -S -o %t/bn8.mlir
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency | FileCheck %s --check-prefix=CONC
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency --debug-only=for_lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=ROUTE
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency-opt | FileCheck %s --check-prefix=OPT --implicit-check-not=arts.for
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency-opt --debug-only=for_lowering,db,db_partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DB
// RUN: env threads=2 nodeCount=1 carts run %t/bn8.mlir --concurrency-opt --debug-only=db_partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DB8
// RUN: env threads=1 nodeCount=2 carts run %t/bn8.mlir --concurrency-opt --debug-only=db_partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=NODES

// CONC-COUNT-5: arts.for
// CONC-NOT: arts.edt <task>

// ROUTE-COUNT-5: [for_lowering] {{.*}}batchnorm.c:{{.*}}: arts.for planned: workers=2 (2 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 2)) % 1 distributed=no (one node)

// Every loop's minimum chunk (below) is at least its trip count: each epoch holds one task
// and no loop over chunks; none of the chunk loops is the static share any more.
// OPT: arts.epoch {
// OPT-NEXT: arts.db_acquire <in>
// OPT: arts.edt <task> <intranode>
// OPT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 4 : i64}
// OPT: arts.epoch {
// OPT-NEXT: arts.db_acquire <in>
// OPT: arts.edt <task> <intranode>
// OPT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 4 : i64}
// OPT: arts.epoch {
// OPT-NEXT: arts.db_acquire <in>
// OPT: arts.edt <task> <intranode>
// OPT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 2 : i64}
// OPT: arts.epoch {
// OPT-NEXT: arts.db_acquire <in>
// OPT: arts.edt <task> <intranode>
// OPT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 2 : i64}
// OPT: arts.epoch {
// OPT-NEXT: arts.db_acquire <in>
// OPT: arts.edt <task> <intranode>
// OPT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 2 : i64}
// OPT-NOT: arts.epoch

// Minimum chunks of the mean, variance, normalize, scale and bias loops: ceil(4096 / weight)
// channels or images, each above the static share of 4 channels or 2 images over 2 workers.
// DB: [for_lowering] {{.*}}batchnorm.c:{{.*}}: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 6 iterations (about 782 operations each) workers=2 (2 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 2)) % 1, worker floor(b / ceil(chunks / 2)) / 1 intranode reductions=0
// DB-NEXT: [for_lowering] {{.*}}: chunk=static share ceil(trips/workers), at least 4 iterations (about 1039 operations each) workers=2
// DB-NEXT: [for_lowering] {{.*}}: chunk=static share ceil(trips/workers), at least 3 iterations (about 1825 operations each) workers=2
// DB-NEXT: [for_lowering] {{.*}}: chunk=static share ceil(trips/workers), at least 4 iterations (about 1290 operations each) workers=2
// DB-NEXT: [for_lowering] {{.*}}: chunk=static share ceil(trips/workers), at least 4 iterations (about 1290 operations each) workers=2
// On one node x stays one datablock: the mean and variance loops read every image of it.
// DB-NEXT: [db_partitioning] {{.*}}batchnorm.c:{{.*}}: alloc memref<2x4x64xf32> -> partition=coarse (one node and a task reads every block)
// out is split by image, but the single chunk of each image loop is not block 0, so the
// normalize, scale and bias tasks take their blocks as `concurrent`.
// DB-NEXT: [db_partitioning] {{.*}}: alloc memref<2x4x64xf32> -> partition=block blocks=ceil(rows / 2) block=memref<?x4x64xf32> distributed=no
// DB-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
// DB-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent partition=block blocks of its chunk (offsets 0..0)
// DB-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
// DB-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent partition=block blocks of its chunk (offsets 0..0)
// DB-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent: chunks are not aligned with blocks, neighbours share boundary blocks
// DB-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent partition=block blocks of its chunk (offsets 0..0)
// mean and variance are written by channel and read whole by the normalize loop: one
// datablock each, shared by the writing chunks.
// DB-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (one node and a task reads every block)
// DB-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent full-range (chunk tasks of one loop share the write)
// DB-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (one node and a task reads every block)
// DB-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent full-range (chunk tasks of one loop share the write)
// gamma and beta are read whole by every chunk.
// DB-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
// DB-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
// The second datablock run reports the final acquires, loop by loop.
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<2x4x64xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=concurrent partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<2x4x64xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=concurrent partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<2x4x64xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<?x4x64xf32>> mode=concurrent partition=block offsets=1d
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<?x4x64xf32>> mode=concurrent partition=block offsets=1d
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<?x4x64xf32>> mode=concurrent partition=block offsets=1d

// 8 images: the image loops' static share of 4 images is above their minimum chunk, so
// chunk k is block k of out: normalize writes its block as `out`, scale and bias update it
// as `inout`. x, mean and variance are still read whole, so on one node they stay whole.
// DB8: [db_partitioning] {{.*}}batchnorm.c:{{.*}}: alloc memref<8x4x64xf32> -> partition=coarse (one node and a task reads every block)
// DB8-NEXT: [db_partitioning] {{.*}}: alloc memref<8x4x64xf32> -> partition=block blocks=ceil(rows / 2) block=memref<?x4x64xf32> distributed=no
// DB8-NEXT: [db_partitioning] {{.*}}: acquire mode=inout partition=block blocks of its chunk (offsets 0..0)
// DB8-NEXT: [db_partitioning] {{.*}}: acquire mode=inout partition=block blocks of its chunk (offsets 0..0)
// DB8-NEXT: [db_partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// DB8-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (one node and a task reads every block)
// DB8-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent full-range (chunk tasks of one loop share the write)
// DB8-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (one node and a task reads every block)
// DB8-NEXT: [db_partitioning] {{.*}}: acquire mode=concurrent full-range (chunk tasks of one loop share the write)
// DB8-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
// DB8-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)

// 8 images on two nodes (one worker each): blocks can live on different nodes, so x and out
// are split by image and mean and variance by channel (their loops chunk it), all
// distributed; the mean and variance loops read x full-range and normalize reads mean and
// variance full-range, and every chunked write keeps its own block.
// NODES: [db_partitioning] {{.*}}batchnorm.c:{{.*}}: alloc memref<8x4x64xf32> -> partition=block blocks=ceil(rows / 2) block=memref<?x4x64xf32> distributed=yes owner route(b) = floor(b / chunksPerWorker) % 2
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=in partition=block full-range (index not derived from the chunk)
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=in partition=block full-range (index not derived from the chunk)
// NODES-NEXT: [db_partitioning] {{.*}}: alloc memref<8x4x64xf32> -> partition=block blocks=ceil(rows / 2) block=memref<?x4x64xf32> distributed=yes owner route(b) = floor(b / chunksPerWorker) % 2
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=inout partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=inout partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=block blocks=ceil(rows / 2) block=memref<?xf32> distributed=yes owner route(b) = floor(b / chunksPerWorker) % 2
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=in partition=block full-range (index not derived from the chunk)
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=block blocks=ceil(rows / 2) block=memref<?xf32> distributed=yes owner route(b) = floor(b / chunksPerWorker) % 2
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=in partition=block full-range (index not derived from the chunk)
// NODES-NEXT: [db_partitioning] {{.*}}: acquire mode=out partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
// NODES-NEXT: [db_partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
