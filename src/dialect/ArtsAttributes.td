//===- ArtsAttributes.td - ARTS enum attributes -------------*- tablegen -*-===//
//
// Every enum prints as `<case>` inside an op's assembly (e.g. `arts.edt
// <parallel> <intranode>`), and as `#arts.<mnemonic><case>` elsewhere.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_ARTS_ATTRIBUTES
#define CARTS_ARTS_ATTRIBUTES

include "dialect/ArtsDialect.td"
include "mlir/IR/EnumAttr.td"

class Arts_EnumAttr<EnumAttrInfo info, string mnemonic>
    : EnumAttr<Arts_Dialect, info, mnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

// How a task uses a datablock: decides whether its acquire is READ or WRITE.
// `concurrent` is a write that shares its generation with the other concurrent
// acquires next to it: the tasks of one work-sharing loop writing a datablock
// that could not be partitioned, which OpenMP guarantees touch disjoint elements.
def Arts_Mode : I32EnumAttr<"ArtsMode", "task access mode of a datablock", [
    I32EnumAttrCase<"in", 0>, I32EnumAttrCase<"out", 1>, I32EnumAttrCase<"inout", 2>,
    I32EnumAttrCase<"concurrent", 3>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_ModeAttr : Arts_EnumAttr<Arts_Mode, "mode">;

// Allocation-level runtime mode (arts-to-llvm maps read/write to ARTS_DB_READ=8 / ARTS_DB_WRITE=9).
def Arts_DbMode : I32EnumAttr<"DbMode", "runtime mode of a datablock allocation", [
    I32EnumAttrCase<"read", 1>, I32EnumAttrCase<"write", 2>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_DbModeAttr : Arts_EnumAttr<Arts_DbMode, "db_mode">;

def Arts_EdtType : I32EnumAttr<"EdtType", "kind of task", [
    I32EnumAttrCase<"parallel", 0>, I32EnumAttrCase<"single", 1>,
    I32EnumAttrCase<"sync", 2>, I32EnumAttrCase<"task", 3>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_EdtTypeAttr : Arts_EnumAttr<Arts_EdtType, "edt_type">;

def Arts_Concurrency : I32EnumAttr<"EdtConcurrency", "where task instances may run", [
    I32EnumAttrCase<"intranode", 0>, I32EnumAttrCase<"internode", 1>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_ConcurrencyAttr : Arts_EnumAttr<Arts_Concurrency, "concurrency">;

def Arts_Partition : I32EnumAttr<"PartitionMode", "datablock layout of an allocation or acquire", [
    I32EnumAttrCase<"coarse", 0>, I32EnumAttrCase<"block", 1>,
    I32EnumAttrCase<"fine_grained", 2>, I32EnumAttrCase<"stencil", 3>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_PartitionAttr : Arts_EnumAttr<Arts_Partition, "partition">;

// Host coherence of a datablock (arts.db_sync): `flush` copies the host's
// shadows of blocks owned by other nodes to their owners, `fetch` copies the
// owners' payloads into the shadows, `share` sends copies of a table on node 0
// to the other nodes ahead of their tasks' reads.
def Arts_SyncKind : I32EnumAttr<"SyncKind", "direction of a host datablock sync", [
    I32EnumAttrCase<"flush", 0>, I32EnumAttrCase<"fetch", 1>, I32EnumAttrCase<"share", 2>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_SyncKindAttr : Arts_EnumAttr<Arts_SyncKind, "sync">;

def Arts_Schedule : I32EnumAttr<"ScheduleKind", "copy of the OpenMP loop schedule", [
    I32EnumAttrCase<"static_", 0, "static">, I32EnumAttrCase<"dynamic", 1>,
    I32EnumAttrCase<"guided", 2>, I32EnumAttrCase<"auto_", 3, "auto">,
    I32EnumAttrCase<"runtime", 4>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_ScheduleAttr : Arts_EnumAttr<Arts_Schedule, "schedule">;

def Arts_Query : I32EnumAttr<"RuntimeQueryKind", "runtime topology query", [
    I32EnumAttrCase<"total_workers", 0>, I32EnumAttrCase<"total_nodes", 1>,
    I32EnumAttrCase<"current_worker", 2>, I32EnumAttrCase<"current_node", 3>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_QueryAttr : Arts_EnumAttr<Arts_Query, "query">;

def Arts_Reduction : I32EnumAttr<"ReductionKind", "reduction operator of a work-sharing loop", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"mul", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"umax", 4>, I32EnumAttrCase<"umin", 5>,
    I32EnumAttrCase<"band", 6>, I32EnumAttrCase<"bor", 7>, I32EnumAttrCase<"bxor", 8>,
    I32EnumAttrCase<"land", 9>, I32EnumAttrCase<"lor", 10>]> {
  let cppNamespace = "::mlir::arts";
  let genSpecializedAttr = 0;
}
def Arts_ReductionAttr : Arts_EnumAttr<Arts_Reduction, "reduction">;
def Arts_ReductionArrayAttr : TypedArrayAttrBase<Arts_ReductionAttr, "reduction kinds">;
def Arts_ModeArrayAttr : TypedArrayAttrBase<Arts_ModeAttr, "access modes">;

#endif // CARTS_ARTS_ATTRIBUTES
