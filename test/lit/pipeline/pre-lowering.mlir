// Exit invariants of pre-lowering on batchnorm (mini with 128 images, 2 workers): every chunk
// task is an outlined EDT function created inside its epoch, with one rec_dep per acquire in
// dependency order; every datablock is a GUID/payload table filled by reserve_guid and
// db_create and destroyed block by block; no high-level ARTS op is left and the output
// re-parses. Its five loops are two (arts-loop-fusion: mean and variance over channels,
// normalize, scale and bias over image x channel pairs). With 128 images (BN_N=128) each of
// the 2 workers gets 2 channels of the first and 256 image x channel pairs of the collapse(2)
// second, at least the minimum chunk, so both keep 2 chunks; with the 2 images of mini each
// loop would be a single task.
// RUN: rm -rf %t && mkdir -p %t
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -DBN_N=128 -I %examples/include -fopenmp --print-debug-info -S -o %t/bn.mlir
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --pre-lowering | carts-opt \
// RUN:   | FileCheck %s --implicit-check-not='arts.edt <' --implicit-check-not=arts.epoch \
// RUN:       --implicit-check-not=arts.db_alloc --implicit-check-not=arts.db_acquire --implicit-check-not=arts.db_ref \
// RUN:       --implicit-check-not=arts.db_release --implicit-check-not=arts.db_free
// RUN: env threads=2 nodeCount=1 carts run %t/bn.mlir --pre-lowering --debug-only=edt-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// CHECK-COUNT-2: func.func private @__arts_edt_{{[0-1]}}(%{{.*}}: i32, %{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: !llvm.ptr) attributes {arts.edt_function}
// CHECK-NOT: func.func private @__arts_edt_
// CHECK-LABEL: func.func @main
// CHECK-COUNT-6: arts.reserve_guid
// Both loops share one epoch (arts-epoch-fusion): the second loop's tasks wait for the
// first's through their acquires, not through a wait.
// The mean and variance loop: on one node x, mean and variance are single datablocks (the
// loop reads every image of x, the collapsed loop every channel of mean and variance), so
// its tasks read x whole and share mean and variance as `concurrent`; the collapsed loop
// reads both in the same epoch, so those writes are ordered (not stable).
// CHECK: %[[E0:.*]] = arts.create_epoch
// CHECK-NEXT: scf.for
// CHECK: %[[T0:.*]] = arts.edt_create @__arts_edt_0({{.*}}) epoch(%[[E0]])
// CHECK-NEXT: arts.rec_dep %[[T0]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<in>] {stable}
// CHECK-NEXT: arts.rec_dep %[[T0]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<concurrent>]{{$}}
// CHECK-NEXT: arts.rec_dep %[[T0]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<concurrent>]{{$}}
// CHECK-NEXT: }
// The collapsed loop: variance, x and mean read, out written, gamma and beta read. Its image
// index k / 4 is not the chunk's, so on one node out is one datablock that the chunks write
// as `concurrent`; nothing else in the epoch acquires out, so those writes are stable
// (arts-stable-reads), and so are the reads of x, gamma and beta.
// CHECK-NEXT: scf.for
// CHECK: %[[T1:.*]] = arts.edt_create @__arts_edt_1({{.*}}) epoch(%[[E0]])
// CHECK-NEXT: arts.rec_dep %[[T1]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<in>]{{$}}
// CHECK-NEXT: arts.rec_dep %[[T1]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<in>] {stable}
// CHECK-NEXT: arts.rec_dep %[[T1]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<in>]{{$}}
// CHECK-NEXT: arts.rec_dep %[[T1]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<concurrent>] {stable}
// CHECK-NEXT: arts.rec_dep %[[T1]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<in>] {stable}
// CHECK-NEXT: arts.rec_dep %[[T1]] slot({{.*}}) ({{.*}} : memref<?xi64>) modes [#arts.mode<in>] {stable}
// CHECK-NEXT: }
// CHECK-NEXT: arts.wait_on_epoch %[[E0]]
// CHECK-NOT: arts.create_epoch
// CHECK-COUNT-6: arts.db_destroy

// The collapsed chunk loop is split after every 4 pairs (one image), so the div/rem of its
// index runs once per image.
// DEBUG: [edt-lowering] {{.*}}batchnorm.c:142:1: loop split at block boundaries (blocks of 4 rows): 2 div/rem of the index once per block
// DEBUG-NEXT: [edt-lowering] {{.*}}batchnorm.c:112:1: dep #0 mode=in table=memref<?xmemref<128x4x64xf32>> block sizes from db_alloc at {{.*}}batchnorm.c
// DEBUG-NEXT: [edt-lowering] {{.*}}batchnorm.c:112:1: dep #1 mode=concurrent table=memref<?xmemref<4xf32>>
// DEBUG-NEXT: [edt-lowering] {{.*}}batchnorm.c:112:1: dep #2 mode=concurrent table=memref<?xmemref<4xf32>>
// DEBUG-NEXT: [edt-lowering] {{.*}}batchnorm.c:112:1: task -> @__arts_edt_0 params=({{.*}}) deps=3
// DEBUG: [edt-lowering] {{.*}}batchnorm.c:142:1: dep #3 mode=concurrent table=memref<?xmemref<128x4x64xf32>>
// DEBUG: [edt-lowering] {{.*}}batchnorm.c:142:1: task -> @__arts_edt_1 params=({{.*}}) deps=6
// DEBUG-NOT: task ->
