//===- Passes.td - ARTS pipeline passes ---------------------*- tablegen -*-===//
//
// Every pass of the ARTS pipeline. Pass argument = file name = lit test name:
// `arts-verify-no-omp` <-> VerifyNoOmp.cpp <-> test/lit/passes/verify-no-omp.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_PASSES
#define CARTS_PASSES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Stage passes
//===----------------------------------------------------------------------===//

def InlineHelpers : Pass<"arts-inline-helpers", "ModuleOp"> {
  let summary = "inline every call to a defined, non-recursive function";
  let description = [{
    The first pass of the canonicalize-memrefs stage, on the front end's
    output. Every call to a defined function that is not (mutually)
    recursive is inlined, callees first, so later analyses find each array a
    parallel loop touches allocated in the same function (helpers like
    `alloc_3d(...)` hide that). Inlined ops keep their location with the call
    site stacked on it, a callee's fixed-size locals move to the top of the
    caller's frame, and private functions left without calls are erased (in
    a program, every function but `main` that nothing calls). Prints on the
    `canonicalize-memrefs` channel.

    ```mlir
    // before
    func.func private @alloc_row(%n: index) -> memref<?xf32> {
      %r = memref.alloc(%n) : memref<?xf32>
      return %r : memref<?xf32>
    }
    %row = func.call @alloc_row(%n) : (index) -> memref<?xf32>
    // after (@alloc_row erased)
    %row = memref.alloc(%n) : memref<?xf32>
    ```
  }];
}

def RaisePointerTables : Pass<"arts-raise-pointer-tables", "ModuleOp"> {
  let summary = "raise pointer-of-pointer arrays to N-D memrefs";
  let description = [{
    The second pass of the canonicalize-memrefs stage, after
    arts-inline-helpers. Every pointer table (an outer `memref.alloc` of
    `memref<?xmemref<...>>` whose rows are allocated by loops over all its
    indices) of any rank becomes one N-D `memref.alloc` at the place of the
    outer allocation: element accesses through chains of row loads index the
    N-D array, and the row allocations, their init loops and the row frees
    are removed. A table whose rows escape (passed to a call left in place,
    stored into other memory), have different sizes or are not allocated for
    every index is reported at the offending op and the pass fails, when
    OpenMP code could see it (the table, a row of it or a variable holding it
    is used inside an `omp.*` region). A table no parallel code sees stays a
    table without a word (nothing later needs it N-D) unless `strict` is set.
    Prints on the `canonicalize-memrefs` channel.

    ```mlir
    // before
    %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
    scf.for %i = %c0 to %n step %c1 {
      %row = memref.alloc(%m) : memref<?xf32>
      memref.store %row, %a[%i] : memref<?xmemref<?xf32>>
    }
    %r = memref.load %a[%i] : memref<?xmemref<?xf32>>
    %v = memref.load %r[%j] : memref<?xf32>
    // after
    %a = memref.alloc(%n, %m) : memref<?x?xf32>
    %v = memref.load %a[%i, %j] : memref<?x?xf32>
    ```
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "report every table that cannot be raised, even one no parallel code sees">
  ];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

def FoldReshapes : Pass<"arts-fold-reshapes", "ModuleOp"> {
  let summary = "an allocation seen through reshaped views becomes one allocation";
  let description = [{
    In the canonicalize-memrefs stage, after arts-raise-pointer-tables. C
    code indexes flat memory through a pointer to rows (`(double (*)[64])
    flat`) and passes a pointer to a whole array as its rows (PolyBench's
    `double (*A)[N][M]` passed as `*A`): views of one allocation
    (memref.reinterpret_cast from offset 0 with row-major strides,
    memref.collapse_shape, memref.expand_shape, memref.cast), where a
    datablock is made of an allocation. Each `memref.alloc` whose uses are
    accesses, frees and such views (each only accessed), every shape's
    extents static but the first, becomes one allocation of the coarsest of
    those shapes (the one every other's dimensions group into); an access of a
    finer shape linearises each group of its indices. Anything else (a view
    passed on, shapes without a coarsest) is left as it is. Prints on the
    `canonicalize-memrefs` channel.

    ```mlir
    // before
    %flat = memref.alloc() : memref<6400xf64>
    %a = memref.reinterpret_cast %flat to offset: [0], sizes: [100, 64], strides: [64, 1]
        : memref<6400xf64> to memref<100x64xf64, strided<[64, 1]>>
    memref.store %v, %a[%i, %j] : memref<100x64xf64, strided<[64, 1]>>
    memref.dealloc %flat : memref<6400xf64>
    // after (canonicalized)
    %a = memref.alloc() : memref<100x64xf64>
    memref.store %v, %a[%i, %j] : memref<100x64xf64>
    memref.dealloc %a : memref<100x64xf64>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::arith::ArithDialect"];
}

def CollectMetadata : Pass<"arts-collect-metadata", "ModuleOp"> {
  let summary = "loop and array facts as `arts.metadata`, shared by source location";
  let description = [{
    On the sequential compile of a program (a module without `omp.*` ops) it
    analyses every loop (`scf.for`, `scf.while`, `affine.for`, ...): trip
    count, nesting level, loop-carried dependences through memory and
    iter_args, reductions, per-iteration temporaries, and a class `parallel`,
    `reduction`, `sequential` or `unknown` (`unknown` whenever the test cannot
    prove a dependence or its absence). Every array (`memref.alloc`/`alloca`,
    memref function arguments) gets its rank, element type, shape, read and
    write counts and the access pattern of each dimension (`iv`, `affine`,
    `invariant`, `indirect`, `unknown`). The facts become a dictionary
    attribute `arts.metadata` on the op (on the function's argument
    attributes for arguments, on the `omp.wsloop` for an `omp.loop_nest`,
    whose printer drops discardable attributes) and a JSON file keyed by
    `file:line:col`, written atomically.

    On the OpenMP compile of the same file (a module with `omp.*` ops) it
    reads the file back and attaches each record to the op at the same source
    location, with `origin = "sequential"`; ops without a record, or every op
    when there is no file, get this module's own analysis with
    `origin = "parallel"`. A malformed file is an error.

    ```mlir
    // before
    scf.for %i = %c0 to %c32 step %c1 {
      %x = memref.load %a[%i] : memref<32xf32>
      memref.store %x, %b[%i] : memref<32xf32>
    }
    // after
    scf.for %i = %c0 to %c32 step %c1 {
      ...
    } {arts.metadata = {class = "parallel", level = 0 : i64, location = "f.c:3:3",
                        loop_carried = "no", origin = "sequential", trip_count = 32 : i64, ...}}
    ```
  }];
  let options = [
    Option<"metadataFile", "metadata-file", "std::string", "\".carts-metadata.json\"",
           "the JSON file written on the sequential compile and read on the OpenMP one">
  ];
}

def OpenMPToArts : Pass<"arts-openmp-to-arts", "ModuleOp"> {
  let summary = "convert the upstream omp dialect into ARTS tasks and work-sharing loops";
  let description = [{
    `omp.parallel` becomes a parallel `arts.edt` (a constant `num_threads`
    becomes `workers`), `omp.wsloop` + `omp.loop_nest` an `arts.for` over
    `index` bounds followed by `arts.barrier` unless `nowait`, `omp.single`
    and `omp.masked`/`omp.master` a single `arts.edt` (a barrier follows a
    `single` without `nowait`), `omp.barrier` an `arts.barrier`, and
    `omp_get_thread_num()` / `omp_get_num_threads()` / `omp_get_max_threads()`
    `arts.runtime_query`s (outside a parallel region `omp_get_thread_num()` is
    0 and `omp_get_num_threads()` 1). `omp.task` becomes an `arts.edt <task>`
    with one `arts.depend` per depend item, `omp.taskwait` an `arts.barrier`,
    `omp.taskgroup` its body followed by an `arts.barrier`, and a parallel
    region whose whole body is one `single`/`master` creating tasks that body as
    host code plus an `arts.barrier` (the runtime's workers are the team that
    runs the tasks). Reductions stay on the `arts.for` with their kind
    read from the `omp.declare_reduction` combiner; private clauses get a fresh
    copy inside each task. Collapsed loop nests keep the outermost loop as the
    `arts.for` and run the inner ones as `scf.for`. A work-sharing loop outside
    any parallel region gets its own parallel task; thread-private allocas of
    a parallel region that only one loop uses move into that loop's body, since
    its iterations, not the workers, become tasks. Tasks carry `no_verify`
    until create-dbs gives them datablock dependencies. Anything else of the
    omp dialect is reported at its location and the pass fails.

    ```mlir
    // before
    omp.parallel {
      omp.wsloop schedule(static) {
        omp.loop_nest (%i) : i32 = (%c0) to (%n) step (%c1) {
          ...
          omp.yield
        }
      }
      omp.terminator
    }
    // after
    arts.edt <parallel> <intranode> route(%c0_i32) attributes {no_verify} {
      arts.for (%lb) to (%ub) step (%s) schedule(<static>) {
      ^bb0(%iv: index):
        %i = arith.index_cast %iv : index to i32
        ...
      }
      arts.barrier
    }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::func::FuncDialect"];
}

def LoopFusion : Pass<"arts-loop-fusion", "ModuleOp"> {
  let summary = "adjacent parallel loops whose iterations touch their own elements become one";
  let description = [{
    Runs after arts-openmp-to-arts. Two parallel tasks next to each other in
    one block, with only side-effect-free ops between them, each holding one
    work-sharing loop and its barrier and nothing else (a
    `#pragma omp parallel for`), over the same bounds and step, with the same
    schedule and no chunk size or reductions, become one task whose loop runs
    the first body and then the second for each iteration, when the second
    reads something the first writes: that removes a wait between two stages
    of tasks and a pass over memory. Independent loops stay apart: they
    already run side by side in one epoch, and one loop would only make
    fewer tasks acquiring more datablocks each, which the creator launches
    more slowly (the transformer's q, k and v products fused were 10-15%
    slower at 16 threads). Fusing needs every
    pair of accesses, one in each loop, that may touch the same memory with a
    write among them, to index one dimension of the same allocation or global
    with the loop's induction variable in both: then no iteration of the
    second loop touches what another iteration of the first wrote or reads.
    A collapse nest (inner loops `arts.collapsed`) needs that for the
    induction variable of every level, and fuses level by level with a nest
    of the same depth and bounds; nests of different depth stay apart (the
    fused loop would lose the inner loop's share of the parallelism). Memory
    allocated inside a body is the iteration's own; two allocations, or two
    globals, are different memory; a write to any other memref (an argument,
    a view, a pointer loaded from memory) or an op with other memory effects
    keeps the loops apart. The bodies' per-iteration `alloca_scope`s become
    one around the fused body. A loop that also depends on the loop before
    the first (it reads or writes what that one writes, or writes what it
    reads) while the first does not stays apart: fused, the first loop's
    tasks would wait for that loop's instead of running beside them.
    Repeated while the next loop fuses, so in
    `h1 = W1 x; h3 = W3 x; h1 = silu(h1) * h3; y = W2 h1; x += y` W1 and W3
    stay apart and so does the SwiGLU (it reads W1's `h1`, which W3's loop
    does not touch), the residual add joins W2's, and a loop reading all of
    `h1` (W2's) does not join the SwiGLU. Channel: `loop-fusion` (each
    fusion, and why an adjacent loop did not fuse).

    ```mlir
    // before
    arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
      arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
      ^bb0(%i: index):
        ... memref.store %v, %a[%i] ...
      }
      arts.barrier
    }
    arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
      arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
      ^bb0(%j: index):
        %x = memref.load %a[%j] ...
      }
      arts.barrier
    }
    // after
    arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
      arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
      ^bb0(%i: index):
        ... memref.store %v, %a[%i] ...
        %x = memref.load %a[%i] ...
      }
      arts.barrier
    }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect"];
}

def CreateDbs : Pass<"arts-create-dbs", "ModuleOp"> {
  let summary = "datablocks for every array a task touches; acquires with in/out/inout";
  let description = [{
    Each memref a task captures is traced to its allocation (`memref.alloc`
    or `memref.alloca` in the same function), which becomes one coarse
    `arts.db_alloc` (a single block holding the whole array). Every task
    acquires the datablocks it uses with the mode its loads and stores imply
    (`in`, `out`, `inout`), reaches them through `arts.db_ref` of the view
    block argument, and releases them at its end. Code outside tasks uses the
    payload through one `arts.db_ref` of the table; `memref.dealloc` becomes
    `arts.db_free`. A memref that is a function argument or a view of unknown
    origin is an error at the task's location.

    Run again on tasks that already have datablocks (after concurrency-opt),
    the pass re-derives every acquire's mode from what its task now does.
    Channels: `create-dbs` (datablocks made), `db` (one line per acquire).

    ```mlir
    // before
    %a = memref.alloc(%n) : memref<?xf32>
    arts.edt <parallel> <intranode> route(%r) attributes {no_verify} {
      ... memref.store %v, %a[%i] ...
    }
    // after
    %g, %p = arts.db_alloc <inout> <write> <coarse> route(%c0_i32) sizes[%c1] elementSizes[%n]
        : memref<?xi64>, memref<?xmemref<?xf32>>
    %g1, %p1 = arts.db_acquire <out> (%g, %p : memref<?xi64>, memref<?xmemref<?xf32>>)
        : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <parallel> <intranode> route(%r) (%p1 : memref<?xmemref<?xf32>>) {
    ^bb0(%view: memref<?xmemref<?xf32>>):
      %a1 = arts.db_ref %view[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
      ... memref.store %v, %a1[%i] ...
      arts.db_release(%view : memref<?xmemref<?xf32>>)
    }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def Concurrency : Pass<"arts-concurrency", "ModuleOp"> {
  let summary = "workers and intranode/internode of each parallel task from arts.cfg";
  let description = [{
    Takes the machine from its options (`threads` per node, default the online
    cores; `nodes`, default 1; the drivers resolve them from their flags, the
    environment and arts.cfg, as the runtime will, and pass them) and
    decides each parallel task's `workers` (every worker of every node, or a
    constant `num_threads` on one node) and `concurrency` (`internode` with
    more than one node). The module records `arts.threads` and `arts.nodes`
    for the passes after it. Work-sharing loops stay `arts.for`. With several
    nodes a task stays on node 0 (`intranode`, every chunk routed there) when
    its body touches memory only node 0's process has: a pointer held in a
    datablock (a `T*` variable captured by the task, `firstprivate(p)`) is an
    address in node 0's memory, and a mutable global is not a datablock, so
    each node would write its own copy.
    Channel: `concurrency`.

    ```mlir
    // before
    arts.edt <parallel> <intranode> route(%r) (%p : ...) { arts.for ... }
    // after (threads=2, nodeCount=2)
    arts.edt <parallel> <internode> route(%r) (%p : ...) attributes {workers = 4 : i64} { arts.for ... }
    ```
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"0",
           "workers per node (0: the online cores)">,
    Option<"nodes", "nodes", "int64_t", /*default=*/"0",
           "node count (0: one node)">,
    Option<"minNodeOps", "min-node-ops", "int64_t", /*default=*/"-1",
           "with several nodes, a parallel task whose work-sharing loops all have constant "
           "trip counts and weigh fewer operations than this in all stays on node 0: an "
           "epoch across nodes costs about 100 us, more than such a task's work (0: "
           "never; -1: 262144)">,
  ];
}

def ForLowering : Pass<"arts-for-lowering", "ModuleOp"> {
  let summary = "split parallel tasks into per-chunk tasks inside epochs";
  let description = [{
    Each parallel task is cut at its barriers into parts, and each part
    becomes an `arts.epoch` of tasks. A part that is one work-sharing loop
    gives one task per chunk of iterations (the worker's static share, or the
    requested chunk; on one node of 12 workers or more, a share of at least
    `balance-ops` operations is cut in 8 chunks routed to its worker, so that
    workers that finish early take the last chunks of slower ones, unless the
    blocks of its rows would then fall under the 2 MiB of a huge page), routed
    by the shared rule
    `route(b) = floor(b / ceil(chunks / (nodes * threads))) % nodes`; the
    chunk's iterations run in an `scf.for` marked `arts.chunk_loop`, and the
    task acquires, from the same tables as the parallel task, the datablocks
    the loop uses. The loop launching the chunks (`arts.launch_loop`) carries
    a chunk's estimated operations (`arts.chunk_ops`) when its size is a
    constant. Reductions accumulate into a private copy per chunk, which
    is stored into a partials datablock and combined in chunk order after the
    epoch. A collapse(2) nest on one node is chunked over both loops'
    iterations; over several nodes along its outer loop, or along its inner
    one (`arts.chunk_inner`, each chunk running the whole outer loop) when the
    module's other work-sharing loops index the nest's arrays in the
    dimensions its inner loop does (weighted by the arrays' bytes), so that
    one cut of each array serves every loop. Over several nodes a loop from a
    constant row lb > 0 is chunked as the rows 0 .. lb + ub are (each chunk the
    loop's rows within its share, as the arrays' blocks), and a stencil (a
    loop reading rows iv +- c, storing at iv) makes each share three chunks,
    its first and last h rows and the rows between (`arts.chunk_edges` = h),
    the blocks db-partitioning cuts its tables in. Any other part gives one task per
    worker, with `omp_get_thread_num()` the worker index, static shares of its
    loops, and single/master parts run by worker 0. Channel: `for_lowering`.

    ```mlir
    // before
    arts.edt <parallel> <intranode> route(%r) (%p : T) attributes {workers = 2 : i64} {
    ^bb0(%v: T):
      arts.for (%c0) to (%n) step (%c1) { ^bb0(%i: index): ... }
      arts.barrier
    }
    // after
    %e = arts.epoch {
      scf.for %b = %c0 to %chunks step %c1 {
        %g, %q = arts.db_acquire <inout> (...)
        arts.edt <task> <intranode> route(%route) (%q : T) attributes {arts.team_workers = 2 : i64} {
        ^bb0(%w: T):
          scf.for %i = %lo to %hi step %c1 { ... } {arts.chunk_loop}
        }
      }
    }
    ```
  }];
  let options = [
    Option<"minChunkOps", "min-chunk-ops", "int64_t", /*default=*/"65536",
           "Within one node, a static loop's chunks get at least ceil(min-chunk-ops / "
           "weight) iterations, weight being a rough operation count of one iteration "
           "(0: always the static share)">,
    Option<"balanceOps", "balance-ops", "int64_t", /*default=*/"4194304",
           "Within one node of 12 workers or more, a static loop whose share per worker "
           "weighs at least this many operations is cut into 8 chunks per worker (0: never)">
  ];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect"];
}

def DbPartitioning : Pass<"arts-db-partitioning", "ModuleOp"> {
  let summary = "choose each datablock's layout: coarse, or blocks of the chunks";
  let description = [{
    A coarse datablock whose chunk-task accesses are indexed, in one
    dimension (the one whose cut leaves the tasks the fewest bytes to move,
    estimated and printed; on one node the leading one unless only another
    is), by
    the chunk loop's induction variable (plus a constant) is
    split into blocks of `B = ceil(rows / chunks)` rows, one per static chunk
    (per worker, or per chunk where for-lowering cut a heavy share into
    several: `arts.chunks_per_worker`; on one node no more blocks than the
    chunks the launch loop makes, and a datablock whose loops make one chunk
    each stays coarse); each chunk task
    acquires the blocks its rows fall in, reads not indexed by the chunk keep
    every block (`full_range`), and every access `A[i, j]` becomes
    `db_ref(view)[i / B - first][i mod B, j]`, host accesses included. A write
    not indexed by the chunk keeps the datablock coarse and the loop's tasks
    share it as `concurrent`. With more than one node, block tables of rank
    >= 2 used by internode tasks are marked `distributed` (block b owned by
    the node chunk b is routed to, `arts.owner_rule`) when their block count
    and block byte size are compile-time constants that fit a 32-bit byte
    count: initPerNode reserves the blocks before mainBody runs. A distributed
    table read with a halo of h rows (a stencil) is cut in three blocks a
    share instead, its first h rows, the rows between and its last h rows
    (`arts.edge_rows`), so that only edges cross between nodes. The channel
    says why a table stays on node 0. Channel: `db_partitioning`.

    ```mlir
    // before
    %g, %p = arts.db_alloc <inout> <write> <coarse> ... sizes[%c1] elementSizes[%n, %m]
    // after
    %g, %p = arts.db_alloc <inout> <write> <block> ... sizes[%blocks] elementSizes[%rows, %m]
    %g1, %q = arts.db_acquire <inout> (%g, %p : ...) offsets[%first] sizes[%count] partition(<block>)
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def Epochs : Pass<"arts-epochs", "ModuleOp"> {
  let summary = "barriers become epochs; synchronous tasks get their own epoch";
  let description = [{
    A barrier outside any task waits for the tasks launched before it: the
    launches since the previous synchronisation point move into an
    `arts.epoch` and the barrier is erased. A task launched outside any epoch
    and any task gets an epoch of its own; tasks launched inside a task belong
    to their parent's epoch. No `arts.barrier` is left.
    Channel: `epochs`.

    ```mlir
    // before
    arts.edt <task> ... { ... }
    arts.barrier
    // after
    %e = arts.epoch {
      arts.edt <task> ... { ... }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect"];
}

def EpochFusion : Pass<"arts-epoch-fusion", "ModuleOp"> {
  let summary = "epochs whose datablocks already order their tasks become one";
  let description = [{
    Runs after arts-epochs, on one node or several (a datablock's owner
    queues the requests in the order the creating node registered them: each
    travels from it to the owner on one ordered connection). Two epochs next
    to each other in one block, with only pure arithmetic between them, become
    one epoch: the later loop's tasks are created while the earlier loop's
    still run, and wait for them through their datablock acquires instead of
    the creator's wait (the runtime grants each datablock in registration
    order, and a request shares the generation being served only when nothing
    is queued ahead of it). A host loop whose body is one epoch and pure
    arithmetic then gets the epoch around it, when each iteration's acquires
    order its tasks after the previous iteration's: a time loop of a stencil
    becomes one epoch of dataflow. Repeated until nothing changes.

    Epochs stay apart (and loops keep an epoch per iteration) when two loops
    acquire one datablock `concurrent` with no acquire of another mode of it
    that surely runs in between (the later writers would share the earlier
    generation), when the later epoch has host code with memory effects
    besides its acquires and launches, when a `concurrent` acquire's datablock
    is not a db_alloc in sight, or when an epoch's handle is used. Channel:
    `epochs` (each fusion, hoist or refusal, with why).

    ```mlir
    // before
    %e0 = arts.epoch { ... acquire <concurrent> %q ... }
    %e1 = arts.epoch { ... acquire <in> %q ... }
    // after
    %e0 = arts.epoch { ... acquire <concurrent> %q ... acquire <in> %q ... }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect"];
}

def HostSync : Pass<"arts-host-sync", "ModuleOp"> {
  let summary = "keep the host's view of distributed datablocks coherent with their owners";
  let description = [{
    Runs after arts-epochs, and only with more than one node (`arts.nodes`).
    Host code (outside tasks) reads and writes a `distributed` datablock
    through its payload table, where blocks owned by other nodes are host
    shadow buffers. Walking host code in program order, per datablock: a
    host access (a load, store or other use of a payload from `arts.db_ref`)
    makes it `dirty`, after an `arts.db_sync <fetch>` first if it is `stale`;
    an epoch whose tasks acquire it gets an `arts.db_sync <flush>` first if it
    is `dirty`, and makes it `stale` if they write it (`out`, `inout`,
    `concurrent`). An op with no epoch inside counts as one host access, so
    a loop nest over the data syncs once, before it. A loop with epochs
    inside is walked twice (the state at the end of its body joins its entry
    state, covering the back edge); datablocks it acquires that are dirty at
    its entry are flushed before it, and those it accesses that are stale are
    fetched before it. The branches of an `scf.if` start from one state and
    join. A table on node 0 that tasks spread over the nodes read whole (no
    task of the epoch writes it) gets an `arts.db_sync <share>` where its
    flush would go, when the host wrote it since it was last sent: its copies
    leave with the host's flushes, not inside the first task's grant. Syncs
    already in the IR count, so running the pass again adds none.
    Channel: `host_sync`.

    ```mlir
    // before
    scf.for %i ... { memref.store %v, (arts.db_ref %ptrs[...])[...] }   // host init
    %e = arts.epoch { ... arts.db_acquire <inout> (%guids, %ptrs ...) ... }
    scf.for %i ... { memref.load (arts.db_ref %ptrs[...])[...] }        // host checksum
    // after
    scf.for %i ... { ... }
    arts.db_sync <flush> (%guids, %ptrs : memref<?xi64>, memref<?xmemref<?x64xf32>>)
    %e = arts.epoch { ... }
    arts.db_sync <fetch> (%guids, %ptrs : memref<?xi64>, memref<?xmemref<?x64xf32>>)
    scf.for %i ... { ... }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect"];
}

def StableReads : Pass<"arts-stable-reads", "ModuleOp"> {
  let summary = "mark the acquires that need no place in their datablock's order as stable";
  let description = [{
    The last pass of the epochs stage. When every `arts.db_acquire` of an
    allocation (traced through acquires and enclosing tasks) is `in`, no task
    writes it: the host fills it outside the epochs that read it, and the
    readers need no place in its access order. Each such acquire gets the
    `stable` flag, which arts-edt-lowering puts on its `arts.rec_dep` and
    arts-to-llvm passes to the runtime as ARTS_DB_READ_STABLE: on one node the
    task gets the payload without joining a READ generation (no lock taken, no
    cache line written), and its end releases nothing. With several nodes the
    runtime treats it as a READ. An allocation that tasks write gets the flag
    on its reads in the epochs the host runs in turn (outermost, not inside a
    task, in a function nothing calls) that hold none of its writers, and on
    its `concurrent` acquires in such epochs where every acquire of it is
    `concurrent` (ARTS_DB_CONCURRENT_STABLE: the payload at once, nothing
    released; a CONCURRENT on several nodes), when every writer is in such an
    epoch: the epochs before have finished and the ones after have not
    started. On one node the same goes for a chunk task's `out`/`inout` of its
    own blocks (block partition, one acquire per trip of the launch loop) in
    such an epoch where no other acquire names the allocation: no two chunks
    share a block and nothing else waits for one (ARTS_DB_WRITE_STABLE: the
    payload at once, nothing released; a WRITE on several nodes); not when
    some acquire in the module cannot be traced to its allocation (it might
    be of this one). If some acquire that writes cannot be traced to its
    allocation, nothing is marked. Channel: `stable-reads` (one line per allocation: stable, stable
    between writers, or why not).

    ```mlir
    // before: every acquire of %w is <in>
    %g, %p = arts.db_acquire <in> (%w_guids, %w_ptrs : ...) : ...
    // after
    %g, %p = arts.db_acquire <in> (%w_guids, %w_ptrs : ...) {stable} : ...
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect"];
}

def EdtLowering : Pass<"arts-edt-lowering", "ModuleOp"> {
  let summary = "outline every task into an EDT function; acquires become rec_dep/dep_gep";
  let description = [{
    The first pass of pre-lowering (before arts-db-lowering, which removes the
    `arts.db_alloc`s whose block shapes this pass reads). Each `arts.edt`,
    innermost first, becomes a private function
    `@__arts_edt_<n>(%paramc: i32, %paramv: !llvm.ptr, %depc: i32, %depv: !llvm.ptr)`
    marked `arts.edt_function`, and at its place `arts.edt_param_pack`,
    `arts.edt_create` and one `arts.rec_dep` per acquire, in dependency order,
    on the acquire's GUID (sub)table (a `memref.subview` for indices, offsets
    and sizes). Each acquire fills as many consecutive slots as it selects
    blocks, row-major. In the outlined function each dependency's view table
    holds exactly its acquired blocks in slot order, rebuilt from
    `arts.dep_gep` and the block sizes, so `arts.db_ref %view[%i]` indexes the
    acquired range. Parameters, each value once and in this order: per
    dependency its acquired extents and its block sizes, the scalars the body
    captures, then the address and extents of any allocation GUID table the
    body creates tasks on without acquiring it (one node only). Constants are
    re-created instead of packed; releases disappear. A task capturing a
    memref that is no datablock, a value that is not a scalar, or a table it
    does not acquire is reported at its location.

    ```mlir
    // before
    %g, %p = arts.db_acquire <inout> (%gA, %pA : memref<?xi64>, memref<?xmemref<?xf32>>)
        offsets[%b] sizes[%c1] : memref<?xi64>, memref<?xmemref<?xf32>>
    arts.edt <task> <intranode> route(%r) (%p : memref<?xmemref<?xf32>>) {
    ^bb0(%v: memref<?xmemref<?xf32>>):
      %blk = arts.db_ref %v[%c0] : memref<?xmemref<?xf32>> -> memref<?xf32>
      memref.store %x, %blk[%i] : memref<?xf32>
      arts.db_release(%v : memref<?xmemref<?xf32>>)
    }
    // after (host)
    %sub = memref.subview %gA[%b] [1] [1] : memref<?xi64> to memref<1xi64, strided<[1], offset: ?>>
    %pv = arts.edt_param_pack(%B, %x, %i : index, f32, index) : memref<?xi64>
    %e = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%r)
    arts.rec_dep %e slot(%c0_i32) (%sub : memref<1xi64, strided<[1], offset: ?>>) modes [#arts.mode<inout>]
    // after (task): %B, %x, %i from arts.edt_param_unpack; the view table from
    // arts.dep_gep %depv[%slot] + a descriptor of %B floats
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect"];
}

def DbLowering : Pass<"arts-db-lowering", "ModuleOp"> {
  let summary = "datablock tables become GUID and payload tables filled by the runtime";
  let description = [{
    Runs after arts-edt-lowering. `arts.db_alloc` becomes a GUID table and a
    payload table (`memref.alloc` of its result types) filled by a loop nest
    over the blocks: `arts.reserve_guid <db_mode> route(%route)`,
    `arts.db_create %guid, %bytes` (bytes = product of the element sizes times
    the element size), and the payload memref built from the raw pointer.
    `arts.db_ref` becomes a `memref.load` from its table; `arts.db_free`
    becomes `arts.db_destroy` per block and the dealloc of both tables.

    A `distributed` allocation (constant block count and block size) is made
    in a generated `func.func @initPerNode(%node: i32, %argc: i32, %argv:
    !llvm.ptr)`, which runs on every node before any task: per block b,
    `arts.reserve_guid` on route(b) = floor(b / ceil(N / (nodes *
    workers_per_node))) % nodes (its `arts.owner_rule`; the route chunk b's
    task gets) and `arts.db_create {distributed}` (the payload on the owner,
    null elsewhere; with `arts.edge_rows = [d, h]`, block b with b mod 3 != 1
    holds h rows of dimension d, the others its element size), both stored
    into private globals
    `@__arts_db_guids_<k>` / `@__arts_db_ptrs_<k>` (`memref<Nxi64>`). At the
    allocation the GUID table is copied from the global and the payload table
    built from the pointers, with a zeroed host shadow (`memref.alloc` +
    memset) for each null one. `arts.db_sync` becomes `arts.create_epoch`,
    one `arts.put_in_db_epoch` (flush) or `arts.get_from_db_epoch` (fetch)
    per block (host pointer, offset 0, the block's bytes) and
    `arts.wait_on_epoch`. Its `arts.db_free` destroys the blocks owned here
    and deallocates the shadows and both tables.

    ```mlir
    // before
    %g, %p = arts.db_alloc <inout> <write> <block> route(%r) sizes[%nb] elementSizes[%B]
        : memref<?xi64>, memref<?xmemref<?xf32>>
    // after
    %g = memref.alloc(%nb) : memref<?xi64>
    %p = memref.alloc(%nb) : memref<?xmemref<?xf32>>
    scf.for %i = %c0 to %nb step %c1 {
      %guid = arts.reserve_guid <write> route(%r)
      %raw = arts.db_create %guid, %bytes : !llvm.ptr
      memref.store %guid, %g[%i] : memref<?xi64>
      memref.store %view, %p[%i] : memref<?xmemref<?xf32>>   // %view: %raw as memref<?xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect", "::mlir::func::FuncDialect"];
}

def EpochLowering : Pass<"arts-epoch-lowering", "ModuleOp"> {
  let summary = "epochs become create_epoch / wait_on_epoch";
  let description = [{
    Runs after arts-edt-lowering. Each `arts.epoch` becomes
    `arts.create_epoch` before its inlined body and `arts.wait_on_epoch`
    after it; every `arts.edt_create` whose nearest enclosing epoch it was
    gets `epoch(%e)`. A task created outside any epoch of its function gets no
    epoch operand: the runtime counts it in the creating task's epoch.

    ```mlir
    // before
    %e = arts.epoch {
      %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%n) route(%r)
    }
    // after
    %e = arts.create_epoch
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%n) route(%r) epoch(%e)
    arts.wait_on_epoch %e
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect"];
}

def UnrollJam : Pass<"arts-unroll-jam", "ModuleOp"> {
  let summary = "chunk loops around a reduction chain or a shared row run four iterations through each inner loop";
  let description = [{
    Runs at the start of pre-lowering, after loop-invariant code motion. A
    chunk loop (`arts.chunk_loop`) whose body is straight-line code and
    inner loops, one of which collect-metadata classified `reduction` (its
    `arts.metadata` `class`: a value carried through the loop, as in
    `val += w[i][j] * x[j]`), waits on that chain: every add waits for the
    one before. One whose inner loop holds a loop reading what every row
    reads (`C[i][j] += A[i][k] * B[k][j]`: the k loop's j loop reads row k
    of B for every i) streams that data once per row. Four iterations of the
    chunk loop are jammed into one (`arts.unroll_jam = 4`): each op of the
    body four times, each inner loop once with the four iterations' bodies
    in it (four independent chains; four rows' j loops sharing B's row from
    the first-level cache); of the one to three
    iterations left, a loop jammed by two takes two and the original loop
    the last. Each iteration's operations keep
    their order, so results are bit-for-bit those of the loop as written;
    only operations of different iterations interleave, which a work-sharing
    loop's independent iterations allow. Kept as it is: a loop whose stores
    are not to the iteration's own allocation or to an element indexed with
    its induction variable (a reduction's shared partial result), that
    reads a memref it writes at another element, whose inner loop's bounds
    change from iteration to iteration or yield values, or with calls or
    other effects. Channel: `unroll-jam` (each loop, jammed or why not).

    ```mlir
    // before
    scf.for %i = %lo to %hi step %c1 {
      %acc = memref.alloca() : memref<f32>
      memref.store %zero, %acc[] : memref<f32>
      scf.for %j = %c0 to %n step %c1 { ... %acc += %w[%i, %j] * %x[%j] ... } {arts.metadata = {class = "reduction", ...}}
      memref.store (load %acc), %y[%i]
    } {arts.chunk_loop}
    // after
    scf.for %i = %lo to %main step %c4 {
      (the allocas and stores of i, i+1, i+2, i+3)
      scf.for %j = %c0 to %n step %c1 { (the body for i, then i+1, i+2, i+3) }
      (the stores of y[i] .. y[i+3])
    } {arts.chunk_loop, arts.unroll_jam = 4 : i64}
    scf.for %i = %main to %main2 step %c2 { (i, i+1) } {arts.chunk_loop, arts.unroll_jam = 2 : i64}
    scf.for %i = %main2 to %hi step %c1 { (as before) } {arts.chunk_loop}
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def LaunchFanout : Pass<"arts-launch-fanout", "ModuleOp"> {
  let summary = "launch loops of stable tasks shared between the creator and launcher tasks";
  let description = [{
    Runs after arts-epoch-lowering, on one node and at 4 or more workers
    (`arts.nodes`, `arts.threads`). A launch loop (`arts.launch_loop`) whose
    body only computes values, packs parameters, creates tasks in an epoch
    and records `stable` dependences does not need its creator: stable
    acquires take no place in their datablock's order, and tasks created by a
    task of the epoch are counted in it before that task ends.

    Each such loop is cut into groups of up to `per-launcher` (4)
    iterations; each group becomes a launcher task `__arts_launch_<n>` (EDT
    ABI, no dependences, created in the same epoch) that runs the loop over
    its range. Of the eligible loops that launch into one epoch from one
    block, the last keeps its last group: the creator launches it itself
    after starting the launchers. A loop of fewer than 3 launches stays with
    its creator, and so does one whose chunks weigh 2^20 operations or more
    (`arts.chunk_ops`): its launches are a small part of such tasks, and a
    launcher only delays the ones it starts. Launcher n asks for worker
    `threads - 1 - n mod threads`.
    Constants are re-created in a launcher, words packed, GUID tables passed
    by address and extents; a loop capturing anything else stays.

    First (`spread`), launch loops of fewer constant trips than workers that
    create tasks into one epoch from one block, and whose tasks touch no
    datablock an earlier one of them writes, get their routes moved past the
    chunks launched before them (chunk b of the third of three 2-chunk loops
    asks for worker 4 + b, not b). A task touching what the earlier ones
    write starts the count again from worker 0.

    ```mlir
    // before
    scf.for %i = %c0 to %c16 step %c1 {
      %pv = arts.edt_param_pack(%i : index) : memref<?xi64>
      %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1_i32) route(%r) epoch(%e)
      arts.rec_dep %t slot(%c0_i32) (%g : memref<?xi64>) modes [#arts.mode<in>] {stable}
    } {arts.launch_loop}
    // after: launchers for iterations 0..3, 4..7 and 8..11; the creator launches 12..15
    scf.for %n = %c0 to %c3 step %c1 {
      %pv = arts.edt_param_pack(%lo, %hi, %address, %extent : ...) : memref<?xi64>
      %l = arts.edt_create @__arts_launch_0(%pv : memref<?xi64>) deps(%c0_i32) route(%w) epoch(%e)
    }
    scf.for %i = %c12 to %c16 step %c1 { ... } {arts.launch_loop}
    ```
  }];
  let options = [
    Option<"perLauncher", "per-launcher", "int64_t", /*default=*/"4",
           "launches one launcher task makes at most (0: launch loops stay with their creator)">,
    Option<"spread", "spread", "bool", /*default=*/"true",
           "independent launch loops of fewer chunks than workers, launched into one epoch, "
           "ask for different workers">
  ];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

//===----------------------------------------------------------------------===//
// Lowering to the LLVM dialect
//===----------------------------------------------------------------------===//

def ArtsToLlvm : Pass<"arts-to-llvm", "ModuleOp"> {
  let summary = "lower the remaining ARTS ops to runtime API calls; generate the entry points";
  let description = [{
    Input: the output of pre-lowering, where only lowered ARTS ops are left
    (`edt_param_pack`/`unpack`, `edt_create`, `rec_dep`, `dep_gep`,
    `reserve_guid`, `db_create`, `db_destroy`, `put_in_db_epoch`,
    `get_from_db_epoch`, `create_epoch`, `wait_on_epoch`, `runtime_query`,
    `atomic_add`, `critical`). Each
    becomes calls of the runtime's C API (declared once, from one table in the
    pass) or plain memref/llvm ops: paramv is a heap buffer of u64 words freed
    after the last `edt_create` using it, `rec_dep` a loop of `artsRecordDep`
    over its GUID tables (READ = 8, WRITE = 9, CONCURRENT = 10), `dep_gep`
    loads from `artsEdtDep_t {i64 guid; i32 mode; ptr ptr}`, `atomic_add` a
    `memref.atomic_rmw`, `critical` its body between `artsCriticalEnter(id)`
    and `artsCriticalExit(id)`; `create_epoch` is
    `artsInitializeAndStartEpoch(0, 0)`, `wait_on_epoch` `artsWaitOnHandle`,
    the datablock copies `artsPutInDbEpoch` / `artsGetFromDbEpoch`.

    The user's `main` (`int main(void)` or `int main(int, char **)`) becomes
    `mainBody`; the generated `artsMain(argc, argv)` calls it, stores its
    result in `@__carts_exit_code` and calls `artsShutdown`; the generated
    `main(argc, argv)` calls `artsSetEntryPoints(@artsMain, @initPerNode or
    null, @initPerWorker or null)` and `artsRT(argc, argv)`, and returns the
    stored exit code (or artsRT's result if it failed). A high-level ARTS op
    still present is an error at its location, and nothing is rewritten.

    The output still uses func/scf/memref/arith: the stage runs the upstream
    conversion to the LLVM dialect after this pass.

    ```mlir
    // before
    %e = arts.create_epoch
    %t = arts.edt_create @__arts_edt_0(%pv : memref<?xi64>) deps(%c1) route(%r) epoch(%e)
    arts.rec_dep %t slot(%c0) (%g : memref<1xi64>) modes [#arts.mode<inout>]
    arts.wait_on_epoch %e
    // after
    %e = call @artsInitializeAndStartEpoch(%c0_i64, %c0_i32) : (i64, i32) -> i64
    %f = func.constant @__arts_edt_0 : (i32, !llvm.ptr, i32, !llvm.ptr) -> ()
    %fp = builtin.unrealized_conversion_cast %f : (i32, !llvm.ptr, i32, !llvm.ptr) -> () to !llvm.ptr
    %t = call @artsEdtCreateWithEpoch(%fp, %r, %paramc, %paramv, %c1, %e) : (...) -> i64
    %guid = memref.load %g[%c0] : memref<1xi64>
    call @artsRecordDep(%guid, %t, %slot, %c9_i32) : (i64, i64, i32, i32) -> ()
    %ok = call @artsWaitOnHandle(%e) : (i64) -> i1
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

//===----------------------------------------------------------------------===//
// Verification passes between stages
//===----------------------------------------------------------------------===//

def VerifyNoOmp : Pass<"arts-verify-no-omp", "ModuleOp"> {
  let summary = "fail if any omp.* operation is left after openmp-to-arts";
  let description = [{
    Sits after the openmp-to-arts stage: every OpenMP construct must have been
    converted, so any surviving `omp.*` op is reported at its location.

    ```mlir
    omp.barrier   // error: 'omp.barrier' left after openmp-to-arts
    ```
  }];
}

def VerifyEdtDeps : Pass<"arts-verify-edt-deps", "ModuleOp"> {
  let summary = "fail if a task dependency does not come from arts.db_acquire";
  let description = [{
    Sits after create-dbs: every `arts.edt` dependency is a datablock view
    produced by `arts.db_acquire`, and no task still carries `no_verify`.
  }];
}

def AliasFacts : Pass<"arts-alias-facts", "ModuleOp"> {
  let summary = "mark each load and store of a task with the allocation it reaches";
  let description = [{
    Runs in pre-lowering before arts-edt-lowering, while a task's dependencies
    still name their acquires. Datablocks of different allocations never
    overlap (each datablock has a payload of its own), but once lowered a
    task only sees pointers loaded from its dependency array, and LLVM must
    assume that a store through one may change what another reads: it keeps
    an accumulated `tmp[i][j]` in memory and vectorises only behind runtime
    checks. So each `memref.load`/`memref.store` reached from a dependency's
    blocks (`arts.db_ref`, or a load of a block from the table, through views)
    gets `arts.alias_array = k`, the allocation's number among the task's
    dependencies (two dependencies on one allocation share it). An access not
    traced to one allocation gets nothing and claims nothing. Channel:
    `alias-facts` (per task: allocations and marked accesses).

    ```mlir
    arts.edt <task> <intranode> route(%r) (%pa, %pb : ...) {
    ^bb0(%a: memref<?xmemref<?xf64>>, %b: memref<?xmemref<?xf64>>):
      %ba = arts.db_ref %a[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
      %x = memref.load %ba[%i] {arts.alias_array = 0 : i64} : memref<?xf64>
      %bb = arts.db_ref %b[%c0] : memref<?xmemref<?xf64>> -> memref<?xf64>
      memref.store %x, %bb[%i] {arts.alias_array = 1 : i64} : memref<?xf64>
    }
    ```
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::memref::MemRefDialect"];
}

def AliasScopes : Pass<"arts-alias-scopes", "ModuleOp"> {
  let summary = "the marks of arts-alias-facts as LLVM alias scopes";
  let description = [{
    Runs in the LLVM lowering right before finalize-memref-to-llvm. In each
    function whose marked accesses reach two allocations or more, every
    allocation gets an alias scope (one domain per function), and a marked
    `memref.load`/`memref.store` becomes the `llvm.load`/`llvm.store`
    finalize-memref-to-llvm would make, with its allocation's scope as
    `alias_scopes` and the others as `noalias_scopes`: LLVM's scoped-noalias
    analysis then knows that accesses of different allocations never alias.
    Marks in a function with one allocation are dropped.
  }];
  let dependentDialects = ["::mlir::arts::ArtsDialect", "::mlir::LLVM::LLVMDialect"];
}

def VerifyLowered : Pass<"arts-verify-lowered", "ModuleOp"> {
  let summary = "fail if a high-level ARTS op is left after pre-lowering";
  let description = [{
    Sits at the end of pre-lowering: tasks, loops, barriers, epochs and
    datablock tables must all have been lowered, so any `arts.edt`,
    `arts.for`, `arts.barrier`, `arts.epoch`, `arts.db_alloc`,
    `arts.db_acquire`, `arts.db_ref`, `arts.db_release` or `arts.db_free` is
    reported at its location.
  }];
}

#endif // CARTS_PASSES
