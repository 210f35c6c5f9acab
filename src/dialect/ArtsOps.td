//===- ArtsOps.td - ARTS operations -------------------------*- tablegen -*-===//

#ifndef CARTS_ARTS_OPS
#define CARTS_ARTS_OPS

include "dialect/ArtsDialect.td"
include "dialect/ArtsAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"

def Arts_GuidTable : MemRefOf<[I64]>;
def Arts_ParamArray : MemRefRankOf<[I64], [1]>;
// A datablock payload seen from the host: a memref, or a raw pointer once lowered.
def Arts_Payload : AnyTypeOf<[AnyMemRef, LLVM_AnyPointer]>;

//===----------------------------------------------------------------------===//
// Structure: tasks, loops, epochs
//===----------------------------------------------------------------------===//

def Arts_EdtOp : Arts_Op<"edt", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    AutomaticAllocationScope]> {
  let summary = "an event-driven task";
  let description = [{
    A task whose body runs once all its dependencies are satisfied. The region
    has one block argument per dependency, in order; each dependency is the
    datablock view produced by an `arts.db_acquire`. A `parallel` task fans out
    into `workers` instances; `concurrency` says whether they may be routed to
    other nodes; `route` is the node the task is created on.

    `no_verify` marks the half-built state right after openmp-to-arts, before
    datablocks exist, when dependencies need not come from acquires yet.

    ```mlir
    %g, %p = arts.db_acquire <inout> (%guids, %ptrs : memref<1xi64>, memref<1xmemref<?xf32>>) ...
    arts.edt <task> <intranode> route(%c0) (%p : memref<1xmemref<?xf32>>) {
    ^bb0(%view: memref<1xmemref<?xf32>>):
      ...
    }
    ```
  }];
  let arguments = (ins Arts_EdtTypeAttr:$edt_type, Arts_ConcurrencyAttr:$concurrency,
                       I32:$route, Variadic<AnyType>:$deps,
                       OptionalAttr<I64Attr>:$workers, UnitAttr:$nowait, UnitAttr:$no_verify);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $edt_type $concurrency `route` `(` $route `)` (`(` $deps^ `:` type($deps) `)`)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Arts_ForOp : Arts_Op<"for", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<LoopLikeOpInterface, ["getLoopInductionVars",
        "getLoopLowerBounds", "getLoopUpperBounds", "getLoopSteps"]>]> {
  let summary = "a work-sharing loop inside a parallel task";
  let description = [{
    The iterations `lb, lb+step, ... < ub` are shared among the instances of the
    enclosing parallel task. The body has one `index` block argument, the
    induction variable. `schedule` and `chunk` copy the OpenMP schedule;
    `reduction` lists accumulators (rank-0 or one-element memrefs) with one
    operator each.

    ```mlir
    arts.for (%c0) to (%n) step (%c1) schedule(<static>) {
    ^bb0(%i: index):
      ...
    }
    ```
  }];
  let arguments = (ins Index:$lower_bound, Index:$upper_bound, Index:$step,
                       OptionalAttr<Arts_ScheduleAttr>:$schedule, Optional<Index>:$chunk,
                       Variadic<AnyMemRef>:$reduction_accs,
                       OptionalAttr<Arts_ReductionArrayAttr>:$reduction_kinds);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    ` ` `(` $lower_bound `)` `to` ` ` `(` $upper_bound `)` `step` ` ` `(` $step `)`
    (`schedule` `(` $schedule^ (`,` $chunk^)? `)`)?
    (`reduction` `(` $reduction_kinds^ $reduction_accs `:` type($reduction_accs) `)`)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getBody().front().getArgument(0); }
  }];
}

def Arts_BarrierOp : Arts_Op<"barrier"> {
  let summary = "wait for every task launched so far in the enclosing region";
  let description = [{
    Comes from `omp.barrier` and from the implicit barrier after a work-sharing
    loop. The epochs stage replaces barriers by epochs.
  }];
  let assemblyFormat = "attr-dict";
}

def Arts_EpochOp : Arts_Op<"epoch", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "a scope whose tasks all finish before control continues";
  let description = [{
    Every task launched inside the region (and its descendants) is counted in
    the epoch; control continues after the op once all of them have finished.
    The result is the epoch's GUID.

    ```mlir
    %e = arts.epoch {
      arts.edt <task> <intranode> route(%c0) { ... }
    }
    ```
  }];
  let results = (outs I64:$guid);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasCanonicalizer = 1;
}

def Arts_CriticalOp : Arts_Op<"critical", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "a critical section: one task at a time runs the body, per name";
  let description = [{
    Comes from `omp.critical` when its body is more than one atomic update. The
    body runs under the runtime's lock for `name` (the unnamed section is
    named ""): tasks of one node take turns. Datablocks a task writes inside it
    are not shared between nodes (create-dbs keeps such acquires exclusive on
    several nodes), so the lock of one node is enough.

    ```mlir
    arts.critical "lo" {
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$name attr-dict-with-keyword $body";
}

def Arts_YieldOp : Arts_Op<"yield", [
    Pure, Terminator, ReturnLike, ParentOneOf<["EdtOp", "ForOp", "EpochOp", "CriticalOp"]>]> {
  let summary = "terminator of task, loop, epoch and critical regions";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Datablocks
//===----------------------------------------------------------------------===//

def Arts_DbAllocOp : Arts_Op<"db_alloc", [AttrSizedOperandSegments]> {
  let summary = "create a table of datablocks";
  let description = [{
    Creates one datablock per entry of the partitioned outer dimensions.
    `sizes` is the number of blocks along each partitioned dimension,
    `elementSizes` the shape of one block. A coarse allocation is one block
    holding the whole array. The results are the handle table: GUIDs
    (`memref<...xi64>`) and payloads (`memref<...xmemref<block shape>>`), both
    of rank `len(sizes)`. `address` is the original buffer, if the datablock
    replaces one. `distributed` marks allocations whose blocks are owned by
    the node their chunk is routed to.

    ```mlir
    %guids, %ptrs = arts.db_alloc <inout> <write> <coarse> route(%c0)
        sizes[%c1] elementSizes[%n, %m] : memref<?xi64>, memref<?xmemref<?x?xf32>>
    ```
  }];
  let arguments = (ins Arts_ModeAttr:$mode, Arts_DbModeAttr:$db_mode,
                       Arts_PartitionAttr:$partition, I32:$route,
                       Variadic<Index>:$sizes, Variadic<Index>:$element_sizes,
                       Optional<AnyMemRef>:$address, UnitAttr:$distributed);
  let results = (outs Arts_GuidTable:$guids, AnyMemRef:$ptrs);
  let assemblyFormat = [{
    $mode $db_mode $partition `route` `(` $route `)`
    `sizes` `[` $sizes `]` `elementSizes` `[` $element_sizes `]`
    (`address` `(` $address^ `:` type($address) `)`)?
    attr-dict `:` type($guids) `,` type($ptrs)
  }];
  let hasVerifier = 1;
}

def Arts_DbAcquireOp : Arts_Op<"db_acquire", [AttrSizedOperandSegments]> {
  let summary = "a task's view of a sub-range of a datablock table";
  let description = [{
    Names the datablocks a task depends on, and how: `mode` (`in`, `out`,
    `inout`) becomes the READ or WRITE acquire of each entry. `indices` pin
    leading dimensions of the table; `offsets`/`sizes` select a range along the
    following ones (empty: the whole table). `partition` says how the task
    indexes the blocks; `full_range` marks an acquire that must keep every
    block (an access not indexed by the task's chunk). `stable` (set by
    arts-stable-reads) says that no other acquire's task can meet this one's
    on the datablock (no writer for an `in`, only other `concurrent` ones for
    a `concurrent`, nothing else for a chunk's `out`/`inout` of its own
    blocks), so the acquire needs no place in its order.

    ```mlir
    %g, %p = arts.db_acquire <in> (%guids, %ptrs : memref<4xi64>, memref<4xmemref<?xf32>>)
        offsets[%b] sizes[%c1] : memref<4xi64>, memref<4xmemref<?xf32>>
    ```
  }];
  let arguments = (ins Arts_ModeAttr:$mode, Arts_GuidTable:$source_guids,
                       AnyMemRef:$source_ptrs, Variadic<Index>:$indices,
                       Variadic<Index>:$offsets, Variadic<Index>:$sizes,
                       OptionalAttr<Arts_PartitionAttr>:$partition, UnitAttr:$full_range,
                       UnitAttr:$stable);
  let results = (outs Arts_GuidTable:$guids, AnyMemRef:$ptrs);
  let assemblyFormat = [{
    $mode ` ` `(` $source_guids `,` $source_ptrs `:` type($source_guids) `,` type($source_ptrs) `)`
    (`indices` `[` $indices^ `]`)? (`offsets` `[` $offsets^ `]`)? (`sizes` `[` $sizes^ `]`)?
    (`partition` `(` $partition^ `)`)?
    attr-dict `:` type($guids) `,` type($ptrs)
  }];
  let hasVerifier = 1;
}

def Arts_DbReleaseOp : Arts_Op<"db_release"> {
  let summary = "end a task's access to its acquired datablocks";
  let arguments = (ins AnyMemRef:$ptrs);
  let assemblyFormat = "`(` $ptrs `:` type($ptrs) `)` attr-dict";
}

def Arts_DbRefOp : Arts_Op<"db_ref", [Pure]> {
  let summary = "select one datablock's payload from a handle table";
  let description = [{
    `%ptrs[%i, ...]` gives the payload memref of one entry; inner indices then
    address inside it with `memref.load`/`memref.store`.
  }];
  let arguments = (ins AnyMemRef:$ptrs, Variadic<Index>:$indices);
  let results = (outs AnyMemRef:$payload);
  let assemblyFormat = "$ptrs `[` $indices `]` attr-dict `:` type($ptrs) `->` type($payload)";
  let hasVerifier = 1;
}

def Arts_DbFreeOp : Arts_Op<"db_free"> {
  let summary = "free a datablock table (replaces the original dealloc)";
  let arguments = (ins Arts_GuidTable:$guids, AnyMemRef:$ptrs);
  let assemblyFormat = "`(` $guids `,` $ptrs `:` type($guids) `,` type($ptrs) `)` attr-dict";
}

def Arts_DbSyncOp : Arts_Op<"db_sync"> {
  let summary = "make the host's writes and reads of a datablock table coherent";
  let description = [{
    Host code (outside tasks) sees every block of a `distributed` allocation
    through its payload table: the owner's payload for blocks this node owns,
    a host shadow buffer for the others. `flush` copies every shadow to the
    block's owner (before tasks use what the host wrote); `fetch` copies every
    owner payload into its shadow (before the host reads what tasks wrote).
    Any other allocation lives on node 0, where the host writes the payloads
    themselves: its `flush` puts every block onto itself, which copies nothing
    but gives the blocks a new version, so nodes holding a copy fetch it
    again; it has no `fetch`. Both wait until the puts or gets are done.
    `share` (a table on node 0 only) sends every block's payload to each
    other node that has no copy of its current version (`arts.db_share`), so
    that tasks there reading it find a copy; nothing waits for it. The
    operands are the tables of an `arts.db_alloc`. Inserted by arts-host-sync.

    ```mlir
    arts.db_sync <flush> (%guids, %ptrs : memref<?xi64>, memref<?xmemref<?x64xf32>>)
    ```
  }];
  let arguments = (ins Arts_SyncKindAttr:$kind, Arts_GuidTable:$guids, AnyMemRef:$ptrs);
  let assemblyFormat = [{
    $kind ` ` `(` $guids `,` $ptrs `:` type($guids) `,` type($ptrs) `)` attr-dict
  }];
  let hasVerifier = 1;
}

def Arts_DependOp : Arts_Op<"depend"> {
  let summary = "a task's declared dependence on a memref (an OpenMP depend item)";
  let description = [{
    Sits in a task's body and says that the task orders itself on `target` as
    `mode` says, whether or not its loads and stores touch it: create-dbs makes
    `target` a dependency of the task and counts the op as a read (`in`), a
    write (`out`) or both (`inout`) when it derives the acquire's mode. It has
    no effect of its own; edt-lowering erases it.

    ```mlir
    arts.edt <task> <intranode> route(%c0) {
      arts.depend <out> %a : memref<?xf64>
      ...
    }
    ```
  }];
  let arguments = (ins Arts_ModeAttr:$mode,
                       Arg<AnyMemRef, "the memref the task orders on", [MemRead, MemWrite]>:$target);
  let assemblyFormat = "$mode $target attr-dict `:` type($target)";
}

//===----------------------------------------------------------------------===//
// Scalars and queries
//===----------------------------------------------------------------------===//

def Arts_AtomicAddOp : Arts_Op<"atomic_add", [
    TypesMatchWith<"value type matches the memref element type", "memref", "value",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "atomic scalar add into memory (reduction fallback)";
  let arguments = (ins AnyTypeOf<[AnySignlessInteger, AnyFloat]>:$value, AnyMemRef:$memref,
                       Variadic<Index>:$indices);
  let assemblyFormat = "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)";
  let hasVerifier = 1;
}

def Arts_RuntimeQueryOp : Arts_Op<"runtime_query"> {
  let summary = "query the runtime topology (omp_get_thread_num and friends)";
  let arguments = (ins Arts_QueryAttr:$query);
  let results = (outs I32:$result);
  let assemblyFormat = "$query attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Lowered forms (pre-lowering to arts-to-llvm)
//===----------------------------------------------------------------------===//

def Arts_EdtParamPackOp : Arts_Op<"edt_param_pack"> {
  let summary = "pack captured values into an EDT's u64 parameter array";
  let description = [{
    Each value becomes one or more `u64` words of `paramv`: integers are
    extended, floats bit-cast, pointers converted to integers.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let results = (outs Arts_ParamArray:$params);
  let assemblyFormat = "`(` ($values^ `:` type($values))? `)` attr-dict `:` type($params)";
  let hasVerifier = 1;
}

def Arts_EdtParamUnpackOp : Arts_Op<"edt_param_unpack"> {
  let summary = "unpack an EDT's u64 parameter array into typed values";
  let arguments = (ins AnyTypeOf<[Arts_ParamArray, LLVM_AnyPointer]>:$params);
  let results = (outs Variadic<AnyType>:$values);
  let assemblyFormat = "$params attr-dict `:` type($params) `->` `(` type($values) `)`";
  let hasVerifier = 1;
}

def Arts_EdtCreateOp : Arts_Op<"edt_create", [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "create an outlined EDT";
  let description = [{
    `artsEdtCreate[WithEpoch](@fn, route, paramc, paramv, depc[, epoch])`. The
    task becomes ready once its `dep_count` slots are satisfied; the result is
    its GUID.
  }];
  let arguments = (ins FlatSymbolRefAttr:$outlined_func, Arts_ParamArray:$params,
                       I32:$dep_count, I32:$route, Optional<I64>:$epoch);
  let results = (outs I64:$guid);
  let assemblyFormat = [{
    $outlined_func `(` $params `:` type($params) `)` `deps` `(` $dep_count `)`
    `route` `(` $route `)` (`epoch` `(` $epoch^ `)`)? attr-dict
  }];
}

def Arts_RecDepOp : Arts_Op<"rec_dep"> {
  let summary = "record datablocks as dependencies of an EDT";
  let description = [{
    Every GUID of every table becomes the next dependency slot of `edt`,
    starting at `first_slot`, with the acquire mode of its table (`in` gives a
    READ acquire, `out`/`inout` a WRITE acquire). One runtime call per entry.
    `stable`: every table comes from a `stable` acquire; an `in` one is
    recorded as ARTS_DB_READ_STABLE, a `concurrent` one as
    ARTS_DB_CONCURRENT_STABLE, an `out` or `inout` one as ARTS_DB_WRITE_STABLE.
  }];
  let arguments = (ins I64:$edt, I32:$first_slot, Variadic<Arts_GuidTable>:$guids,
                       Arts_ModeArrayAttr:$acquire_modes, UnitAttr:$stable);
  let assemblyFormat = [{
    $edt `slot` `(` $first_slot `)` `(` $guids `:` type($guids) `)`
    `modes` $acquire_modes attr-dict
  }];
  let hasVerifier = 1;
}

def Arts_DepGepOp : Arts_Op<"dep_gep", [Pure]> {
  let summary = "read one dependency slot of an outlined EDT";
  let description = [{
    Inside an outlined EDT, gives the GUID and the payload pointer of slot
    `slot` of the `depv` array.
  }];
  let arguments = (ins LLVM_AnyPointer:$depv, Index:$slot);
  let results = (outs I64:$guid, LLVM_AnyPointer:$ptr);
  let assemblyFormat = "$depv `[` $slot `]` attr-dict `:` type($depv) `->` type($ptr)";
}

def Arts_ReserveGuidOp : Arts_Op<"reserve_guid"> {
  let summary = "artsReserveGuidRoute: mint a GUID owned by a node";
  let arguments = (ins Arts_DbModeAttr:$db_mode, I32:$route);
  let results = (outs I64:$guid);
  let assemblyFormat = "$db_mode `route` `(` $route `)` attr-dict";
}

def Arts_DbCreateOp : Arts_Op<"db_create"> {
  let summary = "artsDbCreateWithGuid: allocate a datablock payload for a GUID";
  let description = [{
    Gives the zeroed payload if the GUID is owned by this node, else null. With
    `distributed`, only the owner allocates (every node runs it); with
    `on_owner`, a GUID of another node is created there
    (artsDbCreateOnOwner).
  }];
  let arguments = (ins I64:$guid, I64:$bytes, UnitAttr:$distributed, UnitAttr:$on_owner);
  let results = (outs LLVM_AnyPointer:$ptr);
  let assemblyFormat = "$guid `,` $bytes attr-dict `:` type($ptr)";
}

def Arts_DbDestroyOp : Arts_Op<"db_destroy"> {
  let summary = "artsDbDestroy: free one datablock's payload and GUID";
  let arguments = (ins I64:$guid);
  let assemblyFormat = "$guid attr-dict";
}

def Arts_DbShareOp : Arts_Op<"db_share"> {
  let summary = "artsDbShare: send a datablock's payload to the nodes without a copy of it";
  let description = [{
    Ahead of tasks on other nodes that read the datablock: each node without a
    copy of its current version gets one. Does nothing on one node, or while
    tasks hold the datablock or wait for it (an early transfer, never needed
    for correctness).
  }];
  let arguments = (ins I64:$guid);
  let assemblyFormat = "$guid attr-dict";
}

def Arts_PutInDbEpochOp : Arts_Op<"put_in_db_epoch"> {
  let summary = "artsPutInDbEpoch: copy bytes into a datablock's owner copy";
  let arguments = (ins Arts_Payload:$src, I64:$epoch, I64:$guid, I32:$offset, I32:$bytes);
  let assemblyFormat = [{
    $src `,` `epoch` `(` $epoch `)` `,` `db` `(` $guid `)` `,` `offset` `(` $offset `)`
    `,` `bytes` `(` $bytes `)` attr-dict `:` type($src)
  }];
}

def Arts_GetFromDbEpochOp : Arts_Op<"get_from_db_epoch"> {
  let summary = "artsGetFromDbEpoch: copy bytes of a datablock's owner copy into memory";
  let description = [{
    Copies bytes `[offset, offset + bytes)` of the owner's payload of `guid`
    into `dst`, after every generation recorded on the datablock before it;
    counted in `epoch`, so once the epoch is waited on `dst` holds them.
  }];
  let arguments = (ins Arts_Payload:$dst, I64:$epoch, I64:$guid, I32:$offset, I32:$bytes);
  let assemblyFormat = [{
    $dst `,` `epoch` `(` $epoch `)` `,` `db` `(` $guid `)` `,` `offset` `(` $offset `)`
    `,` `bytes` `(` $bytes `)` attr-dict `:` type($dst)
  }];
}

def Arts_CreateEpochOp : Arts_Op<"create_epoch"> {
  let summary = "artsInitializeAndStartEpoch: start an epoch on the current task";
  let results = (outs I64:$guid);
  let assemblyFormat = "attr-dict";
}

def Arts_WaitOnEpochOp : Arts_Op<"wait_on_epoch"> {
  let summary = "artsWaitOnHandle: wait for every task of an epoch";
  let arguments = (ins I64:$epoch);
  let assemblyFormat = "$epoch attr-dict";
}

#endif // CARTS_ARTS_OPS
