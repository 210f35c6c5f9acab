// Exit invariants of concurrency and concurrency-opt on batchnorm (mini, 2 workers): its five
// loops are two after openmp-to-arts (arts-loop-fusion: mean and variance over channels,
// normalize, scale and bias over image x channel pairs). After --concurrency they are still
// arts.for; after --concurrency-opt each loop is one task per chunk inside an epoch, and the
// datablock decisions are the ones the seed's grep commands look for (partition, full-range,
// mode), including the second datablock run. On one node the collapse(2) loop chunks over
// image x channel pairs, recovering the image as k / 4 and the channel as k mod 4. Mini loops
// are too small to feed two workers, so each gets a single chunk, as does the collapsed loop
// of 8 images (BN_N=8); on two nodes it chunks images only, and the image and channel arrays
// are split.
// RUN: rm -rf %t && mkdir -p %t
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t/bn.mlir
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -DBN_N=8 -I %examples/include -fopenmp --print-debug-info -S -o %t/bn8.mlir
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency | FileCheck %s --check-prefix=CONC
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency --debug-only=for_lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=ROUTE
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency-opt | FileCheck %s --check-prefix=OPT --implicit-check-not=arts.for
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --concurrency-opt --debug-only=for_lowering,db,db_partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DB
// RUN: env threads=2 nodeCount=1 carts run %t/bn8.mlir --concurrency-opt --debug-only=db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=DB8
// RUN: env threads=1 nodeCount=2 nodeMinOps=0 carts run %t/bn8.mlir --concurrency-opt --debug-only=for-lowering,db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=NODES --implicit-check-not=full-range

// CONC-COUNT-2: arts.for
// CONC-NOT: arts.for
// CONC-NOT: arts.edt <task>

// ROUTE-COUNT-2: [for-lowering] {{.*}}batchnorm.c:{{.*}}: arts.for planned: workers=2 (2 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 2)) % 1 distributed=no (one node)
// ROUTE-NOT: planned

// Every loop's minimum chunk (below) is at least its trip count: each epoch holds one task
// and no loop over chunks; none of the chunk loops is the static share any more.
// The mean and variance loop: per channel the mean, then the variance reading it back.
// OPT: arts.epoch {
// OPT-NEXT: arts.db_acquire <in>
// OPT-NEXT: arts.db_acquire <inout>
// OPT-NEXT: arts.db_acquire <out>
// OPT: arts.edt <task> <intranode>
// OPT-NEXT: ^bb0(
// OPT-NEXT: scf.for %[[C:.*]] = %c0 to %c4 step %c1 {
// OPT: memref.store %{{.*}}, %[[MEAN:.*]][%[[C]]] : memref<4xf32>
// OPT: memref.load %[[MEAN]][%[[C]]] : memref<4xf32>
// OPT: memref.store %{{.*}}, %{{.*}}[%[[C]]] : memref<4xf32>
// OPT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_rows = 4 : i64, arts.chunk_trips = 4 : i64}
// The collapsed loop runs the 8 image x channel pairs: image k / 4, channel k mod 4;
// normalize's private inv is made per pair, inside the chunk loop, and the three bodies
// write out one after the other for each pair.
// OPT: arts.epoch {
// OPT-NEXT: arts.db_acquire <in>
// OPT: arts.edt <task> <intranode>
// OPT-NEXT: ^bb0(
// OPT-NEXT: scf.for %[[K:.*]] = %c0 to %c8 step %c1 {
// OPT-NEXT: %[[B:.*]] = arith.divui %[[K]], %c4 : index
// OPT-NEXT: %[[F:.*]] = arith.remui %[[K]], %c4 : index
// OPT: memref.alloca() {{.*}} : memref<f32>
// OPT-NEXT: memref.load %{{.*}}[%[[F]]] : memref<4xf32>
// OPT-COUNT-3: memref.store %{{.*}}, %{{.*}}[%[[B]], %[[F]], %{{.*}}] : memref<2x4x64xf32>
// OPT: } {arts.chunk_loop, arts.chunk_origin = 0 : i64, arts.chunk_trips = 8 : i64}
// OPT-NOT: arts.epoch

// Minimum chunks of the fused mean and variance loop (channels) and of the collapsed loop
// (image x channel pairs, weighed by one pair's work in all three bodies): ceil(65536 /
// weight), each above the static share of 4 channels or 8 pairs over 2 workers.
// DB: [for-lowering] {{.*}}batchnorm.c:112:1: arts.for -> one task per chunk: chunk=static share ceil(trips/workers), at least 36 iterations (about 1832 operations each), evened out workers=2 (2 per node x 1 nodes) route(b) = floor(b / ceil(chunks / 2)) % 1, worker floor(b / ceil(chunks / 2)) / 1 intranode reductions=0
// DB-NEXT: [for-lowering] {{.*}}batchnorm.c:142:1: arts.for collapse(2): chunks over both loops' iterations (outer trips x inner trips)
// DB-NEXT: [for-lowering] {{.*}}batchnorm.c:142:1: {{.*}}: chunk=static share ceil(trips/workers), at least 59 iterations (about 1116 operations each), evened out workers=2
// On one node x stays one datablock: the mean and variance loop reads every image of it and
// the collapsed loop indexes it by k / 4.
// DB-NEXT: [db-partitioning] {{.*}}batchnorm.c:{{.*}}: alloc memref<2x4x64xf32> -> partition=coarse (no task access is indexed by its chunk)
// out's image index k / 4 is not the chunk's, so it stays one datablock. The collapsed loop
// is a single chunk here, which shares the write with nobody: out is acquired `inout`, not
// `concurrent`.
// DB-NEXT: [db-partitioning] {{.*}}: alloc memref<2x4x64xf32> -> partition=coarse (a chunk task writes it at an index not derived from its chunk)
// DB-NEXT: [db-partitioning] {{.*}}batchnorm.c:142:1: acquire mode=inout full-range (the loop's only chunk shares the write with nobody)
// mean and variance are written by channel and read whole by the collapsed loop: one
// datablock each, written by the loop's single chunk (mean is read back, so `inout`).
// DB-NEXT: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (one node and a task reads every block)
// DB-NEXT: [db-partitioning] {{.*}}batchnorm.c:112:1: acquire mode=inout full-range (the loop's only chunk shares the write with nobody)
// DB-NEXT: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (one node and a task reads every block)
// DB-NEXT: [db-partitioning] {{.*}}batchnorm.c:112:1: acquire mode=out full-range (the loop's only chunk shares the write with nobody)
// gamma and beta are read whole by every chunk.
// DB-NEXT: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
// DB-NEXT: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
// The second datablock run reports the final acquires, loop by loop.
// DB-NEXT: [db] {{.*}}batchnorm.c:112:1: acquire memref<?xmemref<2x4x64xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=inout partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=out partition=coarse
// DB-NEXT: [db] {{.*}}batchnorm.c:142:1: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<2x4x64xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<2x4x64xf32>> mode=inout partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NEXT: [db] {{.*}}: acquire memref<?xmemref<4xf32>> mode=in partition=coarse
// DB-NOT: [db]

// 8 images on one node: the collapsed loop's chunk is all 32 image x channel pairs, whose
// image k / 4 is not the chunk's, so out stays one datablock, written by the loop's only
// chunk, as in mini. x, mean and variance are read whole, so on one node they stay whole.
// DB8: [db-partitioning] {{.*}}batchnorm.c:{{.*}}: alloc memref<8x4x64xf32> -> partition=coarse (no task access is indexed by its chunk)
// DB8-NEXT: [db-partitioning] {{.*}}: alloc memref<8x4x64xf32> -> partition=coarse (a chunk task writes it at an index not derived from its chunk)
// DB8-NEXT: [db-partitioning] {{.*}}batchnorm.c:142:1: acquire mode=inout full-range (the loop's only chunk shares the write with nobody)
// DB8-NEXT: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (one node and a task reads every block)
// DB8-NEXT: [db-partitioning] {{.*}}: acquire mode=inout full-range (the loop's only chunk shares the write with nobody)
// DB8-NEXT: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (one node and a task reads every block)
// DB8-NEXT: [db-partitioning] {{.*}}: acquire mode=out full-range (the loop's only chunk shares the write with nobody)
// DB8-NEXT: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)
// DB8-NEXT: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=coarse (no task access is indexed by its chunk)

// 8 images on two nodes (one worker each). The statistics loop chunks channels, and indexes x
// by channel in its second dimension; the collapsed (image, channel) loop reads x and writes
// out at both, so for-lowering chunks it along its inner loop (channels), each chunk running
// every image. Then every loop indexes x and out by channel: both are cut along their second
// dimension (the estimate: no other cut lets every task take only its own blocks), and the
// per-channel vectors along their only one, all distributed; no task reads anything
// full-range.
// NODES: [for-lowering] {{.*}}batchnorm.c:142:1: arts.for collapse(2) on several nodes: chunks along the inner loop (the other loops index 8224 bytes of arrays as the inner loop does, 0 as the outer one)
// NODES: [for-lowering] {{.*}}batchnorm.c:142:1: arts.for collapse(2): chunks of the inner loop's iterations, each running the whole outer loop
// NODES-NEXT: [for-lowering] {{.*}}batchnorm.c:142:1: arts.for -> one task per chunk: chunk=static share ceil(trips/workers) workers=2 (1 per node x 2 nodes) route(b) = floor(b / ceil(chunks / 2)) % 2, worker floor(b / ceil(chunks / 2)) / 2 internode reductions=0
// NODES-NEXT: [db-partitioning] {{.*}}batchnorm.c:177:16: alloc memref<8x4x64xf32> -> partition=block blocks=ceil(rows / 2) dim=1 (bytes the tasks move per run of their loops, estimated: dim 0 coarse, dim 1 0 bytes, dim 2 coarse) block=memref<8x?x64xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 2)) % 2
// NODES-NEXT: [db-partitioning] {{.*}}batchnorm.c:142:1: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db-partitioning] {{.*}}batchnorm.c:112:1: acquire mode=in partition=block blocks of its chunk (offsets 0..0)
// NODES-NEXT: [db-partitioning] {{.*}}batchnorm.c:178:18: alloc memref<8x4x64xf32> -> partition=block blocks=ceil(rows / 2) dim=1 (bytes the tasks move per run of their loops, estimated: dim 0 coarse, dim 1 0 bytes, dim 2 coarse) block=memref<8x?x64xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 2)) % 2
// NODES-NEXT: [db-partitioning] {{.*}}batchnorm.c:142:1: acquire mode=inout partition=block blocks of its chunk (offsets 0..0)
// NODES-COUNT-4: [db-partitioning] {{.*}}: alloc memref<4xf32> -> partition=block blocks=ceil(rows / 2) block=memref<?xf32> distributed=yes owner route(b) = floor(b / ceil(chunks / 2)) % 2
// NODES-NOT: full-range
