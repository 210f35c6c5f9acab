// Two nodes on batchnorm (mini, 2 workers per node): x and out are split into blocks of
// channels (every loop indexes them by channel) owned by the node their chunks run on. After the epochs stage the host's init of x is flushed right
// after the loop that writes it, before the kernel timer starts and the first epoch (which
// reads x) runs, and out is fetched before the checksum loop, after the
// epoch writing it; nothing else syncs. Pre-lowering reserves both tables in initPerNode with
// owner routes b % 2, builds the host tables from the globals, and turns the syncs into
// epochs of puts and gets; arts-to-llvm calls the runtime and registers initPerNode.
// RUN: rm -rf %t && mkdir -p %t
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t/bn.mlir
// RUN: env threads=2 nodeCount=2 nodeMinOps=0 carts run %t/bn.mlir --epochs | FileCheck %s --check-prefix=EPOCHS
// RUN: env threads=2 nodeCount=2 nodeMinOps=0 carts run %t/bn.mlir --epochs --debug-only=host-sync 2>&1 >/dev/null | FileCheck %s --check-prefix=SYNC
// RUN: env threads=2 nodeCount=2 nodeMinOps=0 carts run %t/bn.mlir --pre-lowering | FileCheck %s --check-prefix=LOWERED
// RUN: env threads=2 nodeCount=2 nodeMinOps=0 carts run %t/bn.mlir --pre-lowering | FileCheck %s --check-prefix=ROUTES
// RUN: env threads=2 nodeCount=2 nodeMinOps=0 carts run %t/bn.mlir --arts-to-llvm | FileCheck %s --check-prefix=LLVM

// EPOCHS-LABEL: func.func @main
// EPOCHS: %[[XG:.*]], %[[XP:.*]] = arts.db_alloc <in> <read> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}, %{{.*}}, %{{.*}}] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// EPOCHS: %[[OG:.*]], %[[OP:.*]] = arts.db_alloc <inout> <write> <block> route(%{{.*}}) sizes[%{{.*}}] elementSizes[%{{.*}}, %{{.*}}, %{{.*}}] {arts.owner_rule = {nodes = 2 : i64, workers_per_node = 2 : i64}, distributed}
// EPOCHS-NOT: arts.db_sync
// EPOCHS: arts.db_ref %[[XP]]
// EPOCHS: memref.store
// EPOCHS-NOT: arts.db_sync
// EPOCHS: arts.db_sync <flush> (%[[XG]], %[[XP]] : memref<?xi64>, memref<?xmemref<2x?x64xf32>>)
// EPOCHS-NEXT: scf.for
// gamma and beta are cut by channel too: the host's writes go to their owners before the timer.
// EPOCHS-COUNT-2: arts.db_sync <flush> ({{.*}} : memref<?xi64>, memref<?xmemref<?xf32>>)
// EPOCHS-NOT: arts.db_sync
// The statistics loop and the normalising loop are one epoch: their datablocks order them.
// EPOCHS: call @omp_get_wtime
// EPOCHS-NEXT: arts.epoch
// EPOCHS-NOT: arts.epoch
// EPOCHS-NOT: arts.db_sync
// EPOCHS: arts.db_sync <fetch> (%[[OG]], %[[OP]] : memref<?xi64>, memref<?xmemref<2x?x64xf32>>)
// EPOCHS-NEXT: scf.for
// EPOCHS: arts.db_ref %[[OP]]
// EPOCHS-NOT: arts.db_sync
// EPOCHS: return

// SYNC: [host-sync] {{.*}}batchnorm.c:177:16: distributed datablock: host code reads it at 0 and may write it at 1 places
// SYNC: [host-sync] {{.*}}batchnorm.c:178:18: distributed datablock: host code reads it at 1 and may write it at 0 places
// The per-channel mean and variance are distributed too, and only tasks touch them; gamma and
// beta, read by channel in the normalising loop, are distributed and the host writes them.
// SYNC: [host-sync] {{.*}}batchnorm.c:181:27: distributed datablock: host code reads it at 0 and may write it at 1 places
// SYNC: [host-sync] {{.*}}batchnorm.c:182:26: distributed datablock: host code reads it at 0 and may write it at 1 places
// SYNC: [host-sync] {{.*}}: flush {{.*}}batchnorm.c:177:16 after the host's last write, ahead of the epoch at {{.*}}batchnorm.c:{{[0-9]+}}:{{[0-9]+}}
// SYNC: [host-sync] {{.*}}: flush {{.*}}batchnorm.c:181:27 after the host's last write
// SYNC: [host-sync] {{.*}}: flush {{.*}}batchnorm.c:182:26 after the host's last write
// SYNC-NOT: flush
// SYNC: [host-sync] {{.*}}batchnorm.c:198:3: fetch {{.*}}batchnorm.c:178:18 before host access
// SYNC-NOT: flush
// SYNC: 6 datablocks (6 distributed), 4 syncs inserted

// LOWERED: memref.global "private" @__arts_db_guids_0 : memref<4xi64> = dense<0>
// LOWERED: memref.global "private" @__arts_db_ptrs_0 : memref<4xi64> = dense<0>
// LOWERED: memref.global "private" @__arts_db_guids_1 : memref<4xi64> = dense<0>
// LOWERED: memref.global "private" @__arts_db_ptrs_1 : memref<4xi64> = dense<0>
// LOWERED-LABEL: func.func @main
// LOWERED: memref.get_global @__arts_db_guids_0
// LOWERED: memref.get_global @__arts_db_ptrs_0
// LOWERED: scf.if
// LOWERED: "llvm.intr.memset"
// LOWERED: memref.get_global @__arts_db_guids_1
// The flush of x: one epoch of puts of 2 x 1 x 64 floats (a channel of both images), then
// gamma's and beta's of one float, before the kernel timer and the mean's epoch.
// LOWERED: %[[F:.*]] = arts.create_epoch
// LOWERED: arts.put_in_db_epoch %{{.*}}, epoch(%[[F]]), db(%{{.*}}), offset(%{{.*}}), bytes(%c512_i32) : !llvm.ptr
// LOWERED: arts.wait_on_epoch %[[F]]
// LOWERED-COUNT-2: bytes(%c4_i32)
// LOWERED: call @omp_get_wtime
// LOWERED: %[[E0:.*]] = arts.create_epoch
// LOWERED: arts.edt_create @__arts_edt_0({{.*}}) epoch(%[[E0]])
// LOWERED: arts.edt_create @__arts_edt_1
// LOWERED: arts.wait_on_epoch
// The fetch: one epoch of gets, before the checksum.
// LOWERED: %[[G:.*]] = arts.create_epoch
// LOWERED: arts.get_from_db_epoch %{{.*}}, epoch(%[[G]]), db(%{{.*}}), offset(%{{.*}}), bytes(%c512_i32) : !llvm.ptr
// LOWERED: arts.wait_on_epoch %[[G]]
// LOWERED-NEXT: scf.for
// LOWERED-LABEL: func.func @initPerNode(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: !llvm.ptr)
// LOWERED: arts.reserve_guid <read> route
// LOWERED: arts.db_create %{{.*}}, %c512_i64 {distributed}
// LOWERED: arts.reserve_guid <write> route
// LOWERED: arts.db_create %{{.*}}, %c512_i64 {distributed}

// 4 blocks (of one channel) on 2 nodes of 2 workers: one chunk per worker, route(b) = b % 2
// (folded by the stage's canonicalize).
// ROUTES-LABEL: func.func @initPerNode
// ROUTES: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step
// ROUTES-NEXT: %[[R:.*]] = arith.remui %[[B]], %[[C2:.*]] : index
// ROUTES-NEXT: %[[R32:.*]] = arith.index_cast %[[R]] : index to i32
// ROUTES-NEXT: arts.reserve_guid <read> route(%[[R32]])
// ROUTES: scf.for %[[B2:.*]] = %{{.*}} to %{{.*}} step
// ROUTES-NEXT: %[[R2:.*]] = arith.remui %[[B2]], %[[C2]] : index
// ROUTES-NEXT: %[[R232:.*]] = arith.index_cast %[[R2]] : index to i32
// ROUTES-NEXT: arts.reserve_guid <write> route(%[[R232]])

// LLVM: llvm.func @artsPutInDbEpoch(!llvm.ptr, i64, i64, i32, i32)
// LLVM: llvm.func @artsGetFromDbEpoch(!llvm.ptr, i64, i64, i32, i32)
// LLVM-LABEL: llvm.func @mainBody
// LLVM: llvm.call @artsPutInDbEpoch
// LLVM: llvm.call @artsGetFromDbEpoch
// LLVM-LABEL: llvm.func @initPerNode(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: !llvm.ptr)
// LLVM: llvm.call @artsReserveGuidRoute
// LLVM: llvm.call @artsDbCreateWithGuid
// LLVM-LABEL: llvm.func @main(
// LLVM: %[[INIT:.*]] = llvm.mlir.addressof @initPerNode
// LLVM: llvm.call @artsSetEntryPoints(%{{.*}}, %[[INIT]], %{{.*}})
