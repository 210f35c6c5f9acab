// Exit invariants of the canonicalize-memrefs stage on front-end output of the examples: no
// pointer-table type is left, every table is one N-D allocation freed once, main holds the
// whole program (OpenMP loops included) and the output re-parses. At MINI size the sizes
// are constants, so the stage's canonicalize folds the N-D allocations to static shapes.
// RUN: carts cgeist %examples/llama2-transformer/transformer.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.tf.mlir
// RUN: carts-opt %t.tf.mlir --canonicalize-memrefs -o %t.tf.out.mlir
// RUN: FileCheck %s --check-prefix=TF --implicit-check-not=xmemref < %t.tf.out.mlir
// RUN: carts-opt %t.tf.out.mlir --mlir-print-debuginfo | carts-opt | FileCheck %s --check-prefix=TF --implicit-check-not=xmemref
// RUN: carts-opt %t.tf.mlir --canonicalize-memrefs --debug-only=canonicalize-memrefs 2>&1 >/dev/null | FileCheck %s --check-prefix=TF-DEBUG
// RUN: carts cgeist %examples/ml-kernels/pooling/pooling.c -DMINI_DATASET -I %examples/include -fopenmp -S | carts-opt --canonicalize-memrefs | FileCheck %s --check-prefix=POOL --implicit-check-not=xmemref
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -S | carts-opt --canonicalize-memrefs | FileCheck %s --check-prefix=BN-SEQ --implicit-check-not=xmemref

// transformer: every helper and kernel is inlined into main; only external declarations
// stay beside it.
// TF-NOT: func.func private @{{alloc|free|fill|rand_weight|rmsnorm|matmul|softmax|rope|attention|swiglu|residual}}
// TF-LABEL: func.func @main() -> i32

// The weights, one allocation each: token embedding, the two rmsnorm weights, wq/wk/wv/wo
// ([layer][dim][dim]), w1, w2, w3.
// TF: %[[EMB:.*]] = memref.alloc() : memref<32x16xf32>
// TF-NEXT: memref.alloc() : memref<2x16xf32>
// TF-NEXT: memref.alloc() : memref<2x16xf32>
// TF-NEXT: %[[WQ:.*]] = memref.alloc() : memref<2x16x16xf32>
// TF-NEXT: memref.alloc() : memref<2x16x16xf32>
// TF-NEXT: memref.alloc() : memref<2x16x16xf32>
// TF-NEXT: memref.alloc() : memref<2x16x16xf32>
// TF-NEXT: memref.alloc() : memref<2x64x16xf32>
// TF-NEXT: memref.alloc() : memref<2x16x64xf32>
// TF-NEXT: memref.alloc() : memref<2x64x16xf32>
// The attention scratch and the key/value caches ([layer][position][dim]).
// TF: memref.alloc() : memref<2x4xf32>
// TF-NEXT: %[[KEYS:.*]] = memref.alloc() : memref<2x4x16xf32>
// TF-NEXT: memref.alloc() : memref<2x4x16xf32>
// The row of the embedding table picked by the token.
// TF: memref.load %[[EMB]][%{{.*}}, %{{.*}}] : memref<32x16xf32>
// matmul(q, xb, wq[l], ...) is a work-sharing loop reading wq[l][i][j].
// TF: scf.for %[[LAYER:[^ ]*]] =
// TF: omp.parallel {
// TF: omp.wsloop schedule(static) {
// TF-NEXT: omp.loop_nest (%[[ROW:.*]]) : index
// TF: scf.for %[[COL:[^ ]*]] =
// TF-NEXT: memref.load %[[WQ]][%[[LAYER]], %[[ROW]], %[[COL]]] : memref<2x16x16xf32>
// key_cache[l][pos][i] = k[i]
// TF: memref.store %{{.*}}, %[[KEYS]][%[[LAYER]], %{{.*}}, %{{.*}}] : memref<2x4x16xf32>
// Each N-D array is freed once, where the program freed the outer array.
// TF: memref.dealloc %[[EMB]] : memref<32x16xf32>
// TF: memref.dealloc %[[WQ]] : memref<2x16x16xf32>
// TF: memref.dealloc %[[KEYS]] : memref<2x4x16xf32>
// TF-NOT: memref.dealloc %[[WQ]]
// TF: return

// The decisions, named after the C lines: helpers inlined, then the nine 3-D tables (seven
// weight tensors, two caches) raised.
// TF-DEBUG-DAG: [canonicalize-memrefs] {{.*}}transformer.c:{{[0-9]+}}:{{[0-9]+}}: inlined alloc_2d into alloc_3d
// TF-DEBUG-DAG: [canonicalize-memrefs] {{.*}}transformer.c:{{[0-9]+}}:{{[0-9]+}}: inlined matmul into main
// TF-DEBUG-DAG: [canonicalize-memrefs] {{.*}}transformer.c:{{[0-9]+}}:{{[0-9]+}}: inlined softmax into attention
// TF-DEBUG-DAG: [canonicalize-memrefs] {{.*}}transformer.c:{{[0-9]+}}:{{[0-9]+}}: erased alloc_3d: no call left
// TF-DEBUG-COUNT-9: [canonicalize-memrefs] {{.*}}transformer.c:{{[0-9]+}}:{{[0-9]+}}: raised memref<?xmemref<?xmemref<?xf32>>> to memref<?x?x?xf32> (1 load and 1 store rewritten, 2 init loops, 2 free loops and 3 deallocs removed)

// pooling: 4-D tables ([n][c][h][w]) written by alloc_4d's three nested init loops.
// POOL-LABEL: func.func @main() -> i32
// POOL: %[[IN:.*]] = memref.alloc() : memref<2x4x8x8xf32>
// POOL-NEXT: memref.alloc() : memref<2x4x4x4xf32>
// POOL-NEXT: memref.alloc() : memref<2x4x4x4xf32>
// POOL: omp.parallel
// POOL: memref.load %[[IN]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x4x8x8xf32>
// POOL: memref.dealloc %[[IN]] : memref<2x4x8x8xf32>

// batchnorm, sequential compile: the same raising without OpenMP.
// BN-SEQ-LABEL: func.func @main() -> i32
// BN-SEQ: %[[X:.*]] = memref.alloc() : memref<2x4x64xf32>
// BN-SEQ: memref.store %{{.*}}, %[[X]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x4x64xf32>
// BN-SEQ-NOT: omp.
// BN-SEQ: memref.dealloc %[[X]] : memref<2x4x64xf32>
