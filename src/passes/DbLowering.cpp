//===- DbLowering.cpp - datablock tables become runtime datablocks --------===//
//
// Described in Passes.td (`DbLowering`); below, how it does it.
//
// Runs after edt-lowering (which reads the block shapes off arts.db_alloc).
//
//   arts.db_alloc  -> a GUID table and a payload table (memref.alloc of the
//                     result types) and a loop nest over the blocks that
//                     reserves a GUID on the allocation's route, creates the
//                     datablock and stores its GUID and its payload memref
//   arts.db_ref    -> memref.load from the (payload or view) table
//   arts.db_free   -> arts.db_destroy per block, then dealloc of both tables
//
// A `distributed` allocation (its block count and block size are constants)
// has its blocks made on every node, before any task, in a generated
// `initPerNode(node, argc, argv)`: block b's GUID is reserved on its owner,
// routeOf(b) with the allocation's `arts.owner_rule` (the rule chunk b's task
// is routed by), and `db_create` gives the payload on the owner
// only. Both go to module globals (`@__arts_db_guids_<k>`,
// `@__arts_db_ptrs_<k>`, N x i64 each; a pointer is stored as an integer).
// At the allocation mainBody copies the GUIDs into its table and builds the
// payload table from the pointers, with a zeroed host shadow buffer for each
// block another node owns (null pointer). Its db_syncs become one epoch of
// puts (flush) or gets (fetch), one per block; the runtime skips the blocks
// whose host pointer is the owner's payload. Its db_free destroys the blocks
// this node owns and frees the shadows.
//
// Any other allocation lives on node 0 and host code writes its payloads in
// place; its only sync is a flush, which puts each block's payload onto
// itself in one epoch: the runtime copies nothing but gives the block a new
// version, so a node holding a copy of an older one fetches it again. A put
// takes a 32-bit byte count: a constant block size over 4 GiB is an error
// here, a size known at run time only is checked there.
//
//===----------------------------------------------------------------------===//

#include "policy/Routing.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "support/LoweringUtils.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::arts {
#define GEN_PASS_DEF_DBLOWERING
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

static constexpr llvm::StringLiteral kChannel = "db-lowering";

static constexpr llvm::StringLiteral kInitPerNode = "initPerNode";

namespace {
/// The constants a distributed allocation is made from in initPerNode.
struct Distribution {
  int64_t blocks = 0, bytes = 0;
  int64_t nodes = 1, workersPerNode = 1;
  /// db-partitioning's edge blocks (`arts.edge_rows`): block k with k mod 3 != 1 is an edge
  /// of `edgeBytes`, the others `bytes`, but the last share's middle block `lastBytes`
  /// (edgeBytes 0: every block is `bytes`).
  int64_t edgeBytes = 0, lastBytes = 0;

  /// Block `k`'s bytes (i64, or `type`).
  Value bytesOf(OpBuilder &b, Location loc, Value k, Type type) const {
    Value full = arith::ConstantIntOp::create(b, loc, type, bytes);
    if (!edgeBytes)
      return full;
    Value part = arith::RemUIOp::create(b, loc, k, arith::ConstantIndexOp::create(b, loc, 3));
    Value middle = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part,
                                         arith::ConstantIndexOp::create(b, loc, 1));
    if (lastBytes != bytes) {
      Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k,
                                         arith::ConstantIndexOp::create(b, loc, blocks - 2));
      full = arith::SelectOp::create(b, loc, last,
                                     arith::ConstantIntOp::create(b, loc, type, lastBytes), full);
    }
    return arith::SelectOp::create(b, loc, middle, full,
                                   arith::ConstantIntOp::create(b, loc, type, edgeBytes));
  }
};

struct DbLowering : arts::impl::DbLoweringBase<DbLowering> {
  void runOnOperation() override;

private:
  LogicalResult checkLowerable(DbAllocOp alloc);
  FailureOr<Distribution> checkDistributed(DbAllocOp alloc, int64_t elementBytes);
  LogicalResult checkSyncs(DbAllocOp alloc, int64_t elementBytes);
  void lowerAlloc(DbAllocOp alloc);
  void lowerDistributed(DbAllocOp alloc, const Distribution &dist);
  /// `db_sync` of `alloc` over the lowered tables `guids`/`ptrs` of `extents`
  /// blocks of `bytes` (i64) each, a constant when `staticBytes` is set.
  /// `dist` set: a distributed allocation, whose blocks' bytes it gives.
  void lowerSync(DbSyncOp sync, DbAllocOp alloc, Value guids, Value ptrs, ValueRange extents,
                 Value bytes, std::optional<int64_t> staticBytes,
                 const Distribution *dist = nullptr);
  LogicalResult declareFailureReport(Operation *user);
  void emitFailureIf(OpBuilder &b, Location loc, Value cond, StringRef format, Value arg);
  void lowerDistributedFree(DbFreeOp free, StringRef ptrGlobal, MemRefType globalType,
                            const Distribution &dist);
  void lowerFree(DbFreeOp free);
  func::FuncOp getOrCreateInitPerNode(Location loc);
  std::string addGlobal(Operation *before, StringRef name, MemRefType type);

  SymbolTable *symbols = nullptr; ///< the module's, while the pass runs
  unsigned distributedCount = 0;
  /// What generated code reports a run-time error with: `fprintf(stderr,
  /// ...)`, then `exit(1)`.
  LLVM::GlobalOp stderrGlobal;
  LLVM::LLVMFuncOp fprintfFn;
  func::FuncOp exitFn;
};

/// `memref`'s aligned pointer as an `!llvm.ptr`.
Value rawPointer(OpBuilder &b, Location loc, Value memref) {
  Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), address);
}

bool isDistributed(DbAllocOp alloc) { return alloc && alloc.getDistributed(); }

/// Bytes of one block of `alloc` when its shape is known at compile time
/// (saturated at INT64_MAX).
std::optional<int64_t> staticBlockBytes(DbAllocOp alloc, int64_t elementBytes) {
  auto blockType =
      cast<MemRefType>(cast<MemRefType>(alloc.getPtrs().getType()).getElementType());
  int64_t bytes = elementBytes;
  for (auto [d, extent] : llvm::enumerate(blockType.getShape())) {
    std::optional<int64_t> size =
        ShapedType::isDynamic(extent) ? evaluateConstant(alloc.getElementSizes()[d]) : extent;
    if (!size || *size < 0)
      return std::nullopt;
    if (llvm::MulOverflow(bytes, *size, bytes))
      bytes = std::numeric_limits<int64_t>::max();
  }
  return bytes;
}

/// The db_syncs of `alloc`, in program order (they are always inside the
/// region of the allocation).
SmallVector<DbSyncOp> syncsOf(DbAllocOp alloc) {
  SmallVector<DbSyncOp> syncs;
  alloc->getParentRegion()->walk([&](DbSyncOp sync) {
    if (sync.getGuids() == alloc.getGuids())
      syncs.push_back(sync);
  });
  return syncs;
}
} // namespace

FailureOr<Distribution> DbLowering::checkDistributed(DbAllocOp alloc, int64_t elementBytes) {
  Distribution dist;
  if (alloc.getSizes().size() != 1)
    return alloc.emitError("a distributed allocation needs a 1-d block table, got ")
           << alloc.getSizes().size() << " dimensions";
  std::optional<int64_t> blocks = evaluateConstant(alloc.getSizes().front());
  if (!blocks || *blocks <= 0)
    return alloc.emitError("a distributed allocation needs a constant positive block count: "
                           "initPerNode reserves its blocks before mainBody runs");
  dist.blocks = *blocks;
  dist.bytes = elementBytes;
  for (Value size : alloc.getElementSizes()) {
    std::optional<int64_t> extent = evaluateConstant(size);
    if (!extent)
      return alloc.emitError("a distributed allocation needs constant block sizes: initPerNode "
                             "creates its blocks before mainBody runs");
    dist.bytes *= *extent;
  }
  if (dist.bytes > std::numeric_limits<uint32_t>::max())
    return alloc.emitError("a distributed block of ")
           << dist.bytes << " bytes does not fit the 32-bit byte count of a put or get";
  if (auto edge = artsDialect(alloc)->getEdgeRowsAttrHelper().getAttr(alloc)) {
    std::optional<int64_t> middle;
    if (edge.size() == 3 && edge[0] >= 0 && edge[0] < (int64_t)alloc.getElementSizes().size())
      middle = evaluateConstant(alloc.getElementSizes()[edge[0]]);
    if (!middle || *middle <= 0 || edge[1] <= 0 || edge[2] <= 0 || edge[2] > *middle ||
        dist.blocks % 3 != 0)
      return alloc.emitError("'arts.edge_rows' must be [dimension, edge rows, rows between in "
                             "the last share] of a distributed allocation of three blocks a "
                             "share, each dimension constant");
    dist.edgeBytes = dist.bytes / *middle * edge[1];
    dist.lastBytes = dist.bytes / *middle * edge[2];
  }
  ModuleOp module = getOperation();
  OwnerRule rule = ownerRuleOf(alloc).value_or(OwnerRule{moduleNodes(module), moduleThreads(module)});
  dist.nodes = rule.nodes;
  dist.workersPerNode = rule.workersPerNode;
  if (Operation *init = symbols->lookup(kInitPerNode)) {
    auto fn = dyn_cast<func::FuncOp>(init);
    Type i32 = IntegerType::get(&getContext(), 32);
    auto expected = FunctionType::get(&getContext(),
                                      {i32, i32, LLVM::LLVMPointerType::get(&getContext())}, {});
    if (!fn || fn.isExternal() || fn.getFunctionType() != expected || !fn.getBody().hasOneBlock())
      return init->emitError("'initPerNode' must be a one-block func.func of type ")
             << expected << " to take the reservations of distributed allocations";
  }
  return dist;
}

func::FuncOp DbLowering::getOrCreateInitPerNode(Location loc) {
  if (auto fn = symbols->lookup<func::FuncOp>(kInitPerNode))
    return fn;
  ModuleOp module = getOperation();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type i32 = b.getI32Type();
  auto type = FunctionType::get(b.getContext(),
                                {i32, i32, LLVM::LLVMPointerType::get(b.getContext())}, {});
  auto fn = func::FuncOp::create(b, loc, kInitPerNode, type);
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  symbols->insert(fn);
  return fn;
}

/// A private zero-initialised global before `before` (an op of the module's
/// body); returns its name, made unique.
std::string DbLowering::addGlobal(Operation *before, StringRef name, MemRefType type) {
  OpBuilder b(before);
  auto tensor = RankedTensorType::get(type.getShape(), type.getElementType());
  auto global = memref::GlobalOp::create(
      b, before->getLoc(), b.getStringAttr(name), b.getStringAttr("private"), TypeAttr::get(type),
      DenseElementsAttr::get(tensor, b.getIntegerAttr(type.getElementType(), 0)),
      /*constant=*/UnitAttr(), /*alignment=*/IntegerAttr());
  return symbols->insert(global).getValue().str();
}

LogicalResult DbLowering::checkLowerable(DbAllocOp alloc) {
  auto guidType = cast<MemRefType>(alloc.getGuids().getType());
  auto ptrType = cast<MemRefType>(alloc.getPtrs().getType());
  auto blockType = cast<MemRefType>(ptrType.getElementType());
  if (!guidType.getLayout().isIdentity() || !ptrType.getLayout().isIdentity() ||
      !blockType.getLayout().isIdentity())
    return alloc.emitError("datablock tables and blocks must have the identity layout, got ")
           << guidType << " and " << ptrType;
  if (!elementByteSize(blockType.getElementType()))
    return alloc.emitError("cannot size a datablock of ") << blockType.getElementType();
  if (alloc.getDistributed() &&
      failed(checkDistributed(alloc, *elementByteSize(blockType.getElementType()))))
    return failure();
  if (!alloc.getDistributed() &&
      failed(checkSyncs(alloc, *elementByteSize(blockType.getElementType()))))
    return failure();
  if (!alloc.getDistributed() && ownerRuleOf(alloc)) {
    if (guidType.getRank() != 1)
      return alloc.emitError("a table placed by an owner rule needs a 1-d block table, got ")
             << guidType;
    if (!syncsOf(alloc).empty())
      return alloc.emitError("a table placed by an owner rule lives on its blocks' nodes: the "
                             "host cannot flush or fetch it");
  }
  return success();
}

/// A flush of a table on node 0 puts every block whole: its size must fit the
/// put's 32-bit byte count (checked at run time when it is not a constant).
LogicalResult DbLowering::checkSyncs(DbAllocOp alloc, int64_t elementBytes) {
  // A share sends whole payloads of any size; flushes and fetches count 32-bit bytes.
  SmallVector<DbSyncOp> syncs;
  for (DbSyncOp sync : syncsOf(alloc))
    if (sync.getKind() != SyncKind::share)
      syncs.push_back(sync);
  if (syncs.empty())
    return success();
  std::optional<int64_t> bytes = staticBlockBytes(alloc, elementBytes);
  if (!bytes)
    return declareFailureReport(syncs.front());
  if (*bytes <= std::numeric_limits<uint32_t>::max())
    return success();
  InFlightDiagnostic diag = alloc.emitError("a block of ")
                            << *bytes
                            << " bytes does not fit the 32-bit byte count of the put that "
                               "flushes the host's writes to it";
  diag.attachNote(syncs.front().getLoc()) << "flushed here";
  return diag;
}

/// Declares what emitFailureIf calls, reusing the program's own declarations
/// of them (the front end's `stderr`, `fprintf` and `exit`).
LogicalResult DbLowering::declareFailureReport(Operation *user) {
  if (stderrGlobal && fprintfFn && exitFn)
    return success();
  MLIRContext *ctx = &getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = IntegerType::get(ctx, 32);
  auto fprintfType = LLVM::LLVMFunctionType::get(i32, {ptr, ptr}, /*isVarArg=*/true);
  auto exitType = FunctionType::get(ctx, {i32}, {});
  auto conflict = [&](Operation *existing, StringRef name) {
    InFlightDiagnostic diag =
        user->emitError("the size of the blocks this flush puts is checked at run time, which "
                        "reports an error through '")
        << name << "', but this module defines another '" << name << "'";
    diag.attachNote(existing->getLoc()) << "defined here";
    return diag;
  };
  OpBuilder b = OpBuilder::atBlockBegin(getOperation().getBody());
  Location loc = getOperation().getLoc();
  if (Operation *existing = symbols->lookup("stderr")) {
    stderrGlobal = dyn_cast<LLVM::GlobalOp>(existing);
    if (!stderrGlobal || stderrGlobal.getGlobalType() != ptr ||
        stderrGlobal.getLinkage() != LLVM::Linkage::External)
      return conflict(existing, "stderr");
  } else {
    stderrGlobal = LLVM::GlobalOp::create(b, loc, ptr, /*isConstant=*/false,
                                          LLVM::Linkage::External, "stderr", Attribute());
    symbols->insert(stderrGlobal);
  }
  if (Operation *existing = symbols->lookup("fprintf")) {
    fprintfFn = dyn_cast<LLVM::LLVMFuncOp>(existing);
    if (!fprintfFn || fprintfFn.getFunctionType() != fprintfType)
      return conflict(existing, "fprintf");
  } else {
    fprintfFn = LLVM::LLVMFuncOp::create(b, loc, "fprintf", fprintfType);
    symbols->insert(fprintfFn);
  }
  if (Operation *existing = symbols->lookup("exit")) {
    exitFn = dyn_cast<func::FuncOp>(existing);
    if (!exitFn || exitFn.getFunctionType() != exitType)
      return conflict(existing, "exit");
  } else {
    exitFn = func::FuncOp::create(b, loc, "exit", exitType);
    exitFn.setPrivate();
    symbols->insert(exitFn);
  }
  return success();
}

/// Generated code: when `cond` holds, print `format` (a printf format taking
/// one unsigned 64-bit `arg`) on stderr and exit with status 1.
void DbLowering::emitFailureIf(OpBuilder &b, Location loc, Value cond, StringRef format,
                               Value arg) {
  OpBuilder gb = OpBuilder::atBlockBegin(getOperation().getBody());
  std::string text = (format + Twine('\0')).str();
  auto textType = LLVM::LLVMArrayType::get(gb.getI8Type(), text.size());
  auto global = LLVM::GlobalOp::create(gb, loc, textType, /*isConstant=*/true,
                                       LLVM::Linkage::Internal, "__arts_error_text",
                                       gb.getStringAttr(text));
  symbols->insert(global);
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, cond, /*withElse=*/false);
  OpBuilder tb = branch.getThenBodyBuilder();
  Value stream = LLVM::LoadOp::create(tb, loc, LLVM::LLVMPointerType::get(b.getContext()),
                                      LLVM::AddressOfOp::create(tb, loc, stderrGlobal));
  Value message = LLVM::AddressOfOp::create(tb, loc, global);
  LLVM::CallOp::create(tb, loc, fprintfFn, ValueRange{stream, message, arg});
  func::CallOp::create(tb, loc, exitFn,
                       ValueRange{arith::ConstantIntOp::create(tb, loc, tb.getI32Type(), 1)});
}

void DbLowering::lowerAlloc(DbAllocOp alloc) {
  if (alloc.getDistributed()) {
    auto blockType = cast<MemRefType>(cast<MemRefType>(alloc.getPtrs().getType()).getElementType());
    lowerDistributed(alloc, *checkDistributed(alloc, *elementByteSize(blockType.getElementType())));
    return;
  }
  Location loc = alloc.getLoc();
  auto guidType = cast<MemRefType>(alloc.getGuids().getType());
  auto ptrType = cast<MemRefType>(alloc.getPtrs().getType());
  auto blockType = cast<MemRefType>(ptrType.getElementType());
  int64_t elementBytes = *elementByteSize(blockType.getElementType());

  OpBuilder b(alloc);
  SmallVector<Value> extents = shapeValues(b, loc, guidType, alloc.getSizes());
  SmallVector<Value> blockSizes = shapeValues(b, loc, blockType, alloc.getElementSizes());
  Value guids = memref::AllocOp::create(b, loc, guidType, dynamicSizes(guidType, extents));
  Value ptrs = memref::AllocOp::create(b, loc, ptrType, dynamicSizes(ptrType, extents));
  // Bytes per block: a constant when the block shape is.
  std::optional<int64_t> staticBytes = elementBytes;
  for (Value size : blockSizes) {
    std::optional<int64_t> extent = getConstantIntValue(size);
    staticBytes = staticBytes && extent ? std::optional(*staticBytes * *extent) : std::nullopt;
  }
  Value bytes;
  if (staticBytes) {
    bytes = arith::ConstantIntOp::create(b, loc, b.getI64Type(), *staticBytes);
  } else {
    Value elements =
        arith::IndexCastOp::create(b, loc, b.getI64Type(), productOf(b, loc, blockSizes));
    bytes = arith::MulIOp::create(
        b, loc, elements, arith::ConstantIntOp::create(b, loc, b.getI64Type(), elementBytes));
  }
  DbMode mode = alloc.getDbMode();
  Value route = alloc.getRoute();
  // A placed table (an owner rule without `distributed`): block b lives on the node the
  // rule gives it, created there when the allocation runs; the host sees null for it.
  std::optional<OwnerRule> placed = ownerRuleOf(alloc);
  forEachIndex(b, loc, extents, [&](OpBuilder &lb, Location l, ValueRange ivs) {
    Value blockRoute = placed ? buildRoute(lb, l, ivs.front(), extents.front(), placed->nodes,
                                           placed->workersPerNode)
                              : route;
    Value guid = ReserveGuidOp::create(lb, l, lb.getI64Type(), mode, blockRoute);
    Value raw = DbCreateOp::create(lb, l, LLVM::LLVMPointerType::get(lb.getContext()), guid,
                                   bytes, /*distributed=*/false, /*on_owner=*/placed.has_value());
    memref::StoreOp::create(lb, l, guid, guids, ivs);
    memref::StoreOp::create(lb, l, buildPayloadView(lb, l, raw, blockType, blockSizes), ptrs,
                            ivs);
  });

  CARTS_DEBUG(kChannel, alloc) << "db_alloc <" << stringifyPartitionMode(alloc.getPartition())
                               << "> -> " << guidType.getRank() << "-d table of " << blockType
                               << " blocks, reserve_guid <" << stringifyDbMode(mode) << ">"
                               << " element_bytes=" << elementBytes
                               << (placed ? " block b on node " +
                                                describeRoute(placed->nodes,
                                                              placed->workersPerNode,
                                                              placed->nodes)
                                          : std::string())
                               << (alloc.getAddress() ? " (address operand dropped)" : "")
                               << "\n";
  // Sized as checkSyncs saw them (it may find constants the shape above does not).
  std::optional<int64_t> syncBytes = staticBlockBytes(alloc, elementBytes);
  for (DbSyncOp sync : syncsOf(alloc))
    lowerSync(sync, alloc, guids, ptrs, extents, bytes, syncBytes);
  alloc.getGuids().replaceAllUsesWith(guids);
  alloc.getPtrs().replaceAllUsesWith(ptrs);
  alloc.erase();
}

void DbLowering::lowerDistributed(DbAllocOp alloc, const Distribution &dist) {
  Location loc = alloc.getLoc();
  MLIRContext *ctx = &getContext();
  auto guidType = cast<MemRefType>(alloc.getGuids().getType());
  auto ptrType = cast<MemRefType>(alloc.getPtrs().getType());
  auto blockType = cast<MemRefType>(ptrType.getElementType());
  Type i64 = IntegerType::get(ctx, 64);
  auto llvmPtr = LLVM::LLVMPointerType::get(ctx);
  auto globalType = MemRefType::get({dist.blocks}, i64);

  // The tables initPerNode fills, next to the function of the allocation.
  Operation *top = alloc;
  while (top->getParentOp() != getOperation().getOperation())
    top = top->getParentOp();
  unsigned k = distributedCount++;
  std::string guidGlobal = addGlobal(top, "__arts_db_guids_" + std::to_string(k), globalType);
  std::string ptrGlobal = addGlobal(top, "__arts_db_ptrs_" + std::to_string(k), globalType);

  // initPerNode: reserve every block on its owner, create it (the owner gets
  // its payload, every other node null) and record both.
  func::FuncOp init = getOrCreateInitPerNode(getOperation().getLoc());
  OpBuilder ib(init.getBody().back().getTerminator());
  Value count = arith::ConstantIndexOp::create(ib, loc, dist.blocks);
  Value bytes = arith::ConstantIntOp::create(ib, loc, i64, dist.bytes);
  Value guidTable = memref::GetGlobalOp::create(ib, loc, globalType, guidGlobal);
  Value ptrTable = memref::GetGlobalOp::create(ib, loc, globalType, ptrGlobal);
  DbMode mode = alloc.getDbMode();
  forEachIndex(ib, loc, count, [&](OpBuilder &lb, Location l, ValueRange ivs) {
    Value route = buildRoute(lb, l, ivs[0], count, dist.nodes, dist.workersPerNode);
    Value guid = ReserveGuidOp::create(lb, l, i64, mode, route);
    Value raw = DbCreateOp::create(
        lb, l, llvmPtr, guid, dist.edgeBytes ? dist.bytesOf(lb, l, ivs[0], i64) : bytes,
        /*distributed=*/true);
    memref::StoreOp::create(lb, l, guid, guidTable, ivs);
    memref::StoreOp::create(lb, l, LLVM::PtrToIntOp::create(lb, l, i64, raw), ptrTable, ivs);
  });

  // mainBody: the tables from the globals; a zeroed shadow per block owned
  // elsewhere, which host code reads and writes as if it were the block.
  OpBuilder b(alloc);
  SmallVector<Value> extents = {arith::ConstantIndexOp::create(b, loc, dist.blocks)};
  SmallVector<Value> blockSizes = shapeValues(b, loc, blockType, alloc.getElementSizes());
  Value guids = memref::AllocOp::create(b, loc, guidType, dynamicSizes(guidType, extents));
  Value ptrs = memref::AllocOp::create(b, loc, ptrType, dynamicSizes(ptrType, extents));
  Value hostGuids = memref::GetGlobalOp::create(b, loc, globalType, guidGlobal);
  Value hostPtrs = memref::GetGlobalOp::create(b, loc, globalType, ptrGlobal);
  Value hostBytes = arith::ConstantIntOp::create(b, loc, i64, dist.bytes);
  Value blockCount = extents.front();
  forEachIndex(b, loc, extents, [&](OpBuilder &lb, Location l, ValueRange ivs) {
    Value guid = memref::LoadOp::create(lb, l, hostGuids, ivs);
    memref::StoreOp::create(lb, l, guid, guids, ivs);
    Value address = memref::LoadOp::create(lb, l, hostPtrs, ivs);
    Value remote = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq, address,
                                         arith::ConstantIntOp::create(lb, l, i64, 0));
    auto select = scf::IfOp::create(lb, l, TypeRange{blockType}, remote, /*withElse=*/true);
    OpBuilder tb = select.getThenBodyBuilder();
    Value shadow =
        memref::AllocOp::create(tb, l, blockType, dynamicSizes(blockType, blockSizes));
    Value shadowAddress = rawPointer(tb, l, shadow);
    Value zeroByte = arith::ConstantIntOp::create(tb, l, tb.getI8Type(), 0);
    LLVM::MemsetOp::create(tb, l, shadowAddress, zeroByte, hostBytes, /*isVolatile=*/false);
    scf::YieldOp::create(tb, l, shadow);
    OpBuilder eb = select.getElseBodyBuilder();
    Value payload = LLVM::IntToPtrOp::create(eb, l, llvmPtr, address);
    scf::YieldOp::create(eb, l, buildPayloadView(eb, l, payload, blockType, blockSizes));
    memref::StoreOp::create(lb, l, select.getResult(0), ptrs, ivs);
  });

  if (isDebugChannelOn(kChannel)) {
    std::string owners;
    for (int64_t blk = 0; blk < dist.blocks; ++blk)
      owners += (blk ? ", " : "") +
                std::to_string(routeOf(blk, dist.blocks, dist.nodes, dist.workersPerNode));
    debugLine(kChannel, alloc) << "db_alloc <" << stringifyPartitionMode(alloc.getPartition())
                               << "> distributed -> " << dist.blocks << " blocks of "
                               << dist.bytes << " bytes reserved in initPerNode, owners ["
                               << owners << "] (nodes=" << dist.nodes
                               << " workers_per_node=" << dist.workersPerNode << "), tables @"
                               << guidGlobal << " @" << ptrGlobal
                               << ", host shadows for blocks owned elsewhere\n";
  }

  // Its syncs and frees, in program order (uses are always inside its region).
  SmallVector<Operation *> users;
  alloc->getParentRegion()->walk([&](Operation *op) {
    if (isa<DbSyncOp, DbFreeOp>(op) && op->getOperand(0) == alloc.getGuids())
      users.push_back(op);
  });
  for (Operation *user : users) {
    if (auto sync = dyn_cast<DbSyncOp>(user))
      lowerSync(sync, alloc, guids, ptrs, blockCount, hostBytes, dist.bytes, &dist);
    else if (auto free = dyn_cast<DbFreeOp>(user))
      lowerDistributedFree(free, ptrGlobal, globalType, dist);
  }
  alloc.getGuids().replaceAllUsesWith(guids);
  alloc.getPtrs().replaceAllUsesWith(ptrs);
  alloc.erase();
}

void DbLowering::lowerSync(DbSyncOp sync, DbAllocOp alloc, Value guids, Value ptrs,
                           ValueRange extents, Value bytes, std::optional<int64_t> staticBytes,
                           const Distribution *dist) {
  Location loc = sync.getLoc();
  OpBuilder b(sync);
  if (sync.getKind() == SyncKind::share) {
    forEachIndex(b, loc, extents, [&](OpBuilder &lb, Location l, ValueRange ivs) {
      DbShareOp::create(lb, l, memref::LoadOp::create(lb, l, guids, ivs));
    });
    CARTS_DEBUG(kChannel, sync) << "db_sync <share> of a table on node 0 -> db_share of each "
                                   "block: a copy to every node without one, nothing waited for\n";
    sync.erase();
    return;
  }
  Type i32 = b.getI32Type();
  bool distributed = alloc.getDistributed();
  if (!staticBytes) {
    // A block over 4 GiB does not fit the put's byte count: say so and stop.
    Value limit = arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                               std::numeric_limits<uint32_t>::max());
    Value tooLarge = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, bytes, limit);
    std::string where;
    for (char c : locationString(alloc.getLoc()))
      where += c == '%' ? std::string("%%") : std::string(1, c);
    emitFailureIf(b, loc, tooLarge,
                  "carts: error: " + where +
                      ": a block of this datablock is %llu bytes, over the 32-bit byte count "
                      "of the put that flushes the host's writes to it\n",
                  bytes);
  }
  Value epoch = CreateEpochOp::create(b, loc, b.getI64Type());
  Value offset = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value length = staticBytes ? Value(arith::ConstantIntOp::create(b, loc, i32, *staticBytes))
                             : Value(arith::TruncIOp::create(b, loc, i32, bytes));
  bool flush = sync.getKind() == SyncKind::flush;
  forEachIndex(b, loc, extents, [&](OpBuilder &lb, Location l, ValueRange ivs) {
    Value guid = memref::LoadOp::create(lb, l, guids, ivs);
    Value host = rawPointer(lb, l, memref::LoadOp::create(lb, l, ptrs, ivs));
    Value blockLength =
        dist && dist->edgeBytes ? dist->bytesOf(lb, l, ivs[0], lb.getI32Type()) : length;
    if (flush)
      PutInDbEpochOp::create(lb, l, host, epoch, guid, offset, blockLength);
    else
      GetFromDbEpochOp::create(lb, l, host, epoch, guid, offset, blockLength);
  });
  WaitOnEpochOp::create(b, loc, epoch);
  if (isDebugChannelOn(kChannel)) {
    std::string size = staticBytes ? std::to_string(*staticBytes) + " bytes" : "run-time bytes";
    if (distributed) {
      std::optional<int64_t> blocks = evaluateConstant(extents.front());
      debugLine(kChannel, sync) << "db_sync <" << stringifySyncKind(sync.getKind()) << "> -> "
                                << (flush ? "put_in_db_epoch" : "get_from_db_epoch") << " of "
                                << size << " per block (" << blocks.value_or(-1)
                                << " blocks) in one epoch, then wait_on_epoch\n";
    } else {
      debugLine(kChannel, sync)
          << "db_sync <flush> of a table on node 0 -> put_in_db_epoch of each block's payload "
             "onto itself ("
          << size << " per block"
          << (staticBytes ? "" : ", checked against 4 GiB first")
          << ") in one epoch, then wait_on_epoch: nothing copied, a new version per block\n";
    }
  }
  sync.erase();
}

void DbLowering::lowerDistributedFree(DbFreeOp free, StringRef ptrGlobal, MemRefType globalType,
                                      const Distribution &dist) {
  Location loc = free.getLoc();
  OpBuilder b(free);
  Value guids = free.getGuids(), ptrs = free.getPtrs();
  Value hostPtrs = memref::GetGlobalOp::create(b, loc, globalType, ptrGlobal);
  Value count = arith::ConstantIndexOp::create(b, loc, dist.blocks);
  forEachIndex(b, loc, count, [&](OpBuilder &lb, Location l, ValueRange ivs) {
    Value address = memref::LoadOp::create(lb, l, hostPtrs, ivs);
    Value remote = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq, address,
                                         arith::ConstantIntOp::create(lb, l, lb.getI64Type(), 0));
    auto branch = scf::IfOp::create(lb, l, TypeRange{}, remote, /*withElse=*/true);
    OpBuilder tb = branch.getThenBodyBuilder();
    memref::DeallocOp::create(tb, l, memref::LoadOp::create(tb, l, ptrs, ivs));
    OpBuilder eb = branch.getElseBodyBuilder();
    DbDestroyOp::create(eb, l, memref::LoadOp::create(eb, l, guids, ivs));
  });
  memref::DeallocOp::create(b, loc, guids);
  memref::DeallocOp::create(b, loc, ptrs);
  CARTS_DEBUG(kChannel, free) << "db_free of a distributed allocation -> db_destroy of the blocks "
                                 "owned here, dealloc of the host shadows and both tables\n";
  free.erase();
}

void DbLowering::lowerFree(DbFreeOp free) {
  Location loc = free.getLoc();
  OpBuilder b(free);
  Value guids = free.getGuids();
  auto guidType = cast<MemRefType>(guids.getType());
  SmallVector<Value> extents;
  for (int64_t d = 0; d < guidType.getRank(); ++d)
    extents.push_back(b.createOrFold<memref::DimOp>(loc, guids, d));
  forEachIndex(b, loc, extents, [&](OpBuilder &lb, Location l, ValueRange ivs) {
    DbDestroyOp::create(lb, l, memref::LoadOp::create(lb, l, guids, ivs));
  });
  memref::DeallocOp::create(b, loc, guids);
  memref::DeallocOp::create(b, loc, free.getPtrs());
  CARTS_DEBUG(kChannel, free) << "db_free -> db_destroy per block, dealloc of both tables\n";
  free.erase();
}

void DbLowering::runOnOperation() {
  SymbolTable symbolTable(getOperation());
  symbols = &symbolTable;
  llvm::scope_exit forget([&] { symbols = nullptr; });
  distributedCount = 0;
  stderrGlobal = {};
  fprintfFn = {};
  exitFn = {};
  SmallVector<Operation *> ops; // in program order, so the debug channel reads top down
  bool failedSync = false;
  getOperation().walk([&](Operation *op) {
    // A distributed allocation lowers its syncs and frees itself.
    if (auto free = dyn_cast<DbFreeOp>(op);
        free && isDistributed(free.getGuids().getDefiningOp<DbAllocOp>()))
      return;
    if (auto sync = dyn_cast<DbSyncOp>(op)) {
      if (failed(sync.verify()))
        failedSync = true;
      return;
    }
    if (isa<DbAllocOp, DbFreeOp, DbRefOp>(op))
      ops.push_back(op);
  });
  if (failedSync)
    return signalPassFailure();
  for (Operation *op : ops)
    if (auto alloc = dyn_cast<DbAllocOp>(op); alloc && failed(checkLowerable(alloc)))
      return signalPassFailure();

  for (Operation *op : ops) {
    if (auto alloc = dyn_cast<DbAllocOp>(op)) {
      lowerAlloc(alloc);
    } else if (auto free = dyn_cast<DbFreeOp>(op)) {
      lowerFree(free);
    } else {
      auto ref = cast<DbRefOp>(op);
      OpBuilder b(ref);
      Value payload = memref::LoadOp::create(b, ref.getLoc(), ref.getPtrs(), ref.getIndices());
      ref.getPayload().replaceAllUsesWith(payload);
      ref.erase();
    }
  }
}
