// Exit invariants of the collect-metadata stage on batchnorm: the sequential compile records
// every loop and array (as attributes and in the hand-off file named by --metadata-file), the
// parallel loops of the kernel are `parallel`, the per-channel sums and the checksum are
// reductions, and the OpenMP compile of the same file takes the facts back by location.
// RUN: rm -rf %t && mkdir -p %t
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include --print-debug-info -S -o %t/seq.mlir
// RUN: carts cgeist %examples/ml-kernels/batchnorm/batchnorm.c -DMINI_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t/omp.mlir
// RUN: carts-opt %t/seq.mlir --collect-metadata --metadata-file %t/bn.json -o %t/seq.out.mlir
// RUN: FileCheck %s --check-prefix=SEQ --implicit-check-not='class = "unknown"' --implicit-check-not='class = "sequential"' < %t/seq.out.mlir
// RUN: carts-opt %t/seq.out.mlir --mlir-print-debuginfo | carts-opt | FileCheck %s --check-prefix=SEQ
// RUN: FileCheck %s --check-prefix=JSON < %t/bn.json
// RUN: carts-opt %t/omp.mlir --collect-metadata --metadata-file %t/bn.json --debug-only=collect-metadata 2>&1 >/dev/null | FileCheck %s --check-prefix=IMPORT

// The three arrays of the kernel are indexed by the loops' IVs in every dimension.
// SEQ: dims = ["iv", "iv", "iv"], element_type = "f32", location = "batchnorm.c:177:16", op = "memref.alloc"
// The mean: a parallel loop over channels whose per-channel sum is private to it, summed
// by the two loops inside.
// SEQ: class = "reduction", level = 2 : i64, location = "batchnorm.c:116:7"{{.*}}kind = "add"
// SEQ: class = "parallel", level = 0 : i64, location = "batchnorm.c:113:3"{{.*}}private = ["batchnorm.c:114:12"]
// The normalisation: three parallel levels.
// SEQ: class = "parallel", level = 2 : i64, location = "batchnorm.c:146:7"
// SEQ: class = "parallel", level = 0 : i64, location = "batchnorm.c:143:3"
// The checksum: a reduction at every level.
// SEQ: class = "reduction", level = 0 : i64, location = "batchnorm.c:198:3"{{.*}}kind = "add"

// JSON: "arrays": {
// JSON: "batchnorm.c:177:16": {
// JSON: "loops": {
// JSON: "batchnorm.c:113:3": {
// JSON: "source": "{{.*}}batchnorm.c",

// IMPORT: imported 19 loop and 9 array facts from {{.*}}bn.json
