//===- ArtsDialect.td - the ARTS dialect shell --------------*- tablegen -*-===//
//
// The ARTS dialect models asynchronous many-task programs: event-driven tasks
// (EDTs), datablocks with owners and access modes, and epochs.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_ARTS_DIALECT
#define CARTS_ARTS_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Arts_Dialect : Dialect {
  let name = "arts";
  let cppNamespace = "::mlir::arts";
  let summary = "Event-driven tasks, datablocks and epochs of the ARTS runtime";
  let description = [{
    High-level ops (`arts.edt`, `arts.for`, `arts.db_alloc`, `arts.db_acquire`,
    `arts.epoch`, ...) carry the parallel structure from the OpenMP input through
    datablock creation, work distribution and partitioning. Lowered ops
    (`arts.edt_create`, `arts.rec_dep`, `arts.dep_gep`, ...) mirror the ARTS v1
    C API one to one and are converted to calls by arts-to-llvm.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::LLVM::LLVMDialect"];
  let useDefaultAttributePrinterParser = 1;
  let hasCanonicalizer = 0;
  // The facts passes hand on to later passes as attributes, each declared here
  // with a typed accessor (ArtsDialect::getThreadsAttrHelper() ...); no pass
  // spells an `arts.` attribute name itself.
  //
  // The machine, on the module (concurrency): `threads` (workers per node),
  // `nodes`. On a distributed block-partitioned arts.db_alloc
  // (db-partitioning): `owner_rule` = {nodes, workers_per_node}, the terms of
  // the route formula its blocks' owners follow, and `edge_rows` = [halo rows,
  // rows of a share] when each share is cut in edge blocks (read by
  // db-lowering).
  //
  // From the front end: `taskloop` on a task made from a taskloop chunk (its
  // writes are shared, create-dbs), `rest_of_body` on the scf.if holding what
  // follows an early return (raise-pointer-tables accepts row allocations
  // there). From openmp-to-arts: `collapsed` on the inner loop of a
  // collapse(2) nest (loop-fusion, for-lowering).
  //
  // From for-lowering, on the scf.for that launches chunk tasks:
  // `launch_loop` (read by db-partitioning, stable-reads, launch-fanout,
  // arts-to-llvm), `chunk_ops` (operations of one chunk; launch-fanout); on a
  // chunk task's loop over its rows: `chunk_loop`, `chunk_origin` (first row
  // of the chunking), `chunk_trips` (rows of the whole loop), `chunk_rows`
  // (rows of a chunk), `chunk_edges` (halo rows of a stencil's split chunks),
  // `chunk_static_share` (chunks follow the static schedule's shares),
  // `chunks_per_worker`; `chunk_inner` on a collapse(2) nest chunked along its
  // inner loop; `team_workers` on a team's task (workers it runs on). These
  // tell db-partitioning where each chunk's rows lie.
  //
  // From unroll-jam: `unroll_jam` (the factor) on the loop it jammed. From
  // edt-lowering and launch-fanout: `edt_function` on the functions tasks run.
  // From alias-facts: `alias_array` on a task's memref.load/store, the number
  // of the task's allocation the access reaches (alias-scopes reads it).
  // From openmp-to-arts: `asks_thread` on a task whose code asked its thread number, which
  // is 0 in a task outside a team's region (create-dbs keeps its writes exclusive: tasks
  // indexing per-thread storage with it would otherwise all write the same slot at once).
  // From create-dbs: `order_only` on the acquire of an element's token, which orders the
  // task (its depend item) and whose payload the task never touches (refreshed modes
  // leave it alone).
  // (collect-metadata's `arts.metadata` is also put on function arguments,
  // which these accessors do not cover: MetadataAnalysis.h names it.)
  let discardableAttrs = (ins
    "::mlir::IntegerAttr":$threads,
    "::mlir::IntegerAttr":$nodes,
    "::mlir::DictionaryAttr":$owner_rule,
    "::mlir::DenseI64ArrayAttr":$edge_rows,
    "::mlir::UnitAttr":$taskloop,
    "::mlir::UnitAttr":$rest_of_body,
    "::mlir::UnitAttr":$collapsed,
    "::mlir::UnitAttr":$launch_loop,
    "::mlir::IntegerAttr":$chunk_ops,
    "::mlir::UnitAttr":$chunk_loop,
    "::mlir::IntegerAttr":$chunk_origin,
    "::mlir::IntegerAttr":$chunk_trips,
    "::mlir::IntegerAttr":$chunk_rows,
    "::mlir::IntegerAttr":$chunk_edges,
    "::mlir::UnitAttr":$chunk_static_share,
    "::mlir::IntegerAttr":$chunks_per_worker,
    "::mlir::UnitAttr":$chunk_inner,
    "::mlir::IntegerAttr":$team_workers,
    "::mlir::IntegerAttr":$unroll_jam,
    "::mlir::UnitAttr":$edt_function,
    "::mlir::IntegerAttr":$alias_array,
    "::mlir::UnitAttr":$order_only,
    "::mlir::UnitAttr":$asks_thread
  );
}

class Arts_Op<string mnemonic, list<Trait> traits = []>
    : Op<Arts_Dialect, mnemonic, traits>;

#endif // CARTS_ARTS_DIALECT
