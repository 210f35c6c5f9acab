// y[i] = 2 * x[i] for i in [0, n), as the ARTS pipeline leaves it after concurrency:
// one coarse datablock per array, a parallel task of 4 workers, a work-sharing loop,
// all inside an epoch. `carts-opt vector-scale.mlir` round-trips it.
func.func @scale(%n: index) {
  %route = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %xg, %xp = arts.db_alloc <in> <read> <coarse> route(%route) sizes[%c1] elementSizes[%n] : memref<?xi64>, memref<?xmemref<?xf32>>
  %yg, %yp = arts.db_alloc <out> <write> <coarse> route(%route) sizes[%c1] elementSizes[%n] : memref<?xi64>, memref<?xmemref<?xf32>>
  %xag, %xap = arts.db_acquire <in> (%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>) : memref<?xi64>, memref<?xmemref<?xf32>>
  %yag, %yap = arts.db_acquire <out> (%yg, %yp : memref<?xi64>, memref<?xmemref<?xf32>>) : memref<?xi64>, memref<?xmemref<?xf32>>
  %done = arts.epoch {
    arts.edt <parallel> <intranode> route(%route) (%xap, %yap : memref<?xmemref<?xf32>>, memref<?xmemref<?xf32>>) attributes {workers = 4} {
    ^bb0(%x: memref<?xmemref<?xf32>>, %y: memref<?xmemref<?xf32>>):
      %xb = arts.db_ref %x[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
      %yb = arts.db_ref %y[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
      arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
      ^bb0(%i: index):
        %v = memref.load %xb[%i] : memref<?xf32>
        %s = arith.mulf %v, %two : f32
        memref.store %s, %yb[%i] : memref<?xf32>
      }
      arts.db_release(%x : memref<?xmemref<?xf32>>)
      arts.db_release(%y : memref<?xmemref<?xf32>>)
    }
  }
  arts.db_free(%xg, %xp : memref<?xi64>, memref<?xmemref<?xf32>>)
  arts.db_free(%yg, %yp : memref<?xi64>, memref<?xmemref<?xf32>>)
  return
}
