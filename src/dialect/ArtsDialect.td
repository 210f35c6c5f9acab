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
  // The facts the passes hand on as attributes, with typed accessors
  // (ArtsDialect::getThreadsAttrHelper() ...). On the module, from the
  // concurrency stage: `arts.threads` (workers per node) and `arts.nodes`. On
  // a distributed block-partitioned arts.db_alloc, from db-partitioning:
  // `arts.owner_rule` = {nodes, workers_per_node}, the terms of the route
  // formula its blocks' owners follow.
  let discardableAttrs = (ins
    "::mlir::IntegerAttr":$threads,
    "::mlir::IntegerAttr":$nodes,
    "::mlir::DictionaryAttr":$owner_rule
  );
}

class Arts_Op<string mnemonic, list<Trait> traits = []>
    : Op<Arts_Dialect, mnemonic, traits>;

#endif // CARTS_ARTS_DIALECT
