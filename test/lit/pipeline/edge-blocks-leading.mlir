// Edge blocks (a share's first and last halo rows as blocks of their own) only along a
// table's leading dimension. The 4th-order 3-D stencil's parallel loop indexes the last
// dimension of its float*** arrays, with a halo of 2 planes: on two nodes its tables are cut
// along dimension 2 in plain blocks, one per share. (A task sees all blocks of a dependency
// through one shape; an edge block of 2 planes cut along the last dimension got the strides
// of the 16 planes between, and a node crashed.) jacobi2d, cut along its rows, keeps its
// edges.
// RUN: carts cgeist %examples/stencils/stencil3d-order4/stencil3d-order4.c -DSMALL_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.s3.mlir
// RUN: env threads=1 nodeCount=2 nodeMinOps=0 carts run %t.s3.mlir --concurrency-opt --debug-only=db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=PLANES --implicit-check-not=edges
// RUN: carts cgeist %examples/polybench/jacobi2d/jacobi2d.c -DSMALL_DATASET -I %examples/include -fopenmp --print-debug-info -S -o %t.j.mlir
// RUN: env threads=1 nodeCount=2 nodeMinOps=0 carts run %t.j.mlir --concurrency-opt --debug-only=db-partitioning 2>&1 >/dev/null | FileCheck %s --check-prefix=ROWS

// PLANES-COUNT-3: [db-partitioning] {{.*}}stencil3d-order4.c:{{[0-9]+}}:{{[0-9]+}}: alloc memref<40x40x40xf32> -> partition=block blocks=ceil(rows / 2) dim=2
// ROWS: [db-partitioning] {{.*}}jacobi2d.c:{{[0-9]+}}:{{[0-9]+}}: alloc {{.*}} -> partition=block blocks=3 per share of {{[0-9]+}} rows: edges of 1 and {{[0-9]+}} rows between (halo of 1 rows across nodes; 2 shares)
