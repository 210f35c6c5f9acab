// Edge blocks (a share's first and last halo rows as blocks of their own) along any
// dimension. The 4th-order 3-D stencil's parallel loop indexes the last dimension of its
// float*** arrays, with a halo of 2 planes: on two nodes u and v are cut along dimension 2
// in edges of 2 planes and 16 between, and each block is laid out with that dimension first
// (`memref<?x40x40xf32>`, `arts.edge_rows` on dimension 0), so that blocks of different
// plane counts differ in their leading extent only. (A task sees all blocks of a dependency
// through one shape: an edge block of 2 planes cut along the last dimension, laid out as the
// array is, got the strides of the 16 planes between, and a node crashed.) c, read without a
// halo, keeps plain blocks in the array's order; jacobi2d, cut along its rows, keeps its edges.
// RUN: carts cgeist %examples/stencils/stencil3d-order4/stencil3d-order4.c -DSMALL_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.s3.mlir
// RUN: env threads=1 nodeCount=2 nodeMinOps=0 carts run %t.s3.mlir --concurrency-opt --debug-only=db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=PLANES
// RUN: carts cgeist %examples/polybench/jacobi2d/jacobi2d.c -DSMALL_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.j.mlir
// RUN: env threads=1 nodeCount=2 nodeMinOps=0 carts run %t.j.mlir --concurrency-opt --debug-only=db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=ROWS

// PLANES-COUNT-2: [db-partitioning] {{.*}}stencil3d-order4.c:{{[0-9]+}}:{{[0-9]+}}: alloc memref<40x40x40xf32> -> partition=block blocks=3 per share of 20 rows: edges of 2 and 16 rows between, the cut dimension first in each block (halo of 2 rows across nodes; 2 shares) dim=2 {{.*}} block=memref<?x40x40xf32> distributed=yes
// PLANES: [db-partitioning] {{.*}}stencil3d-order4.c:{{[0-9]+}}:{{[0-9]+}}: alloc memref<40x40x40xf32> -> partition=block blocks=ceil(rows / 2) dim=2 {{.*}} block=memref<40x40x?xf32> distributed=yes
// ROWS: [db-partitioning] {{.*}}jacobi2d.c:{{[0-9]+}}:{{[0-9]+}}: alloc {{.*}} -> partition=block blocks=3 per share of {{[0-9]+}} rows: edges of 1 and {{[0-9]+}} rows between (halo of 1 rows across nodes; 2 shares)
