//===- DbPartitioning.cpp - choose each datablock's layout ----------------===//
//
// After for-lowering every chunk task acquires whole (coarse) datablocks. A
// datablock whose accesses in chunk tasks are indexed, in its leading
// dimension, by the chunk loop's induction variable (plus a constant) is split
// into blocks along that dimension, so each task acquires only the blocks of
// its chunk and tasks of one loop no longer share a datablock. Block b holds
// rows [b*B, (b+1)*B) with B = ceil(rows / workers): the static chunks of a
// loop over the rows are exactly the blocks, so the shared routing rule gives
// a block's owner and its chunk's task the same node.
//
// Policy (decided first, per allocation):
//  * no task access indexed by a chunk          -> coarse;
//  * a write not indexed by the chunk           -> coarse, and the loop's
//    tasks share the write as `concurrent`;
//  * an access that is not a plain load/store   -> coarse;
//  * otherwise                                  -> block; reads not indexed by
//    the chunk keep every block (`full_range`).
// Mechanism (then): the allocation, acquires and every access are rewritten:
// `A[i, j]` becomes `db_ref(view)[i / B - first][i mod B, j]`.
// With more than one node, block tables used by internode tasks are marked
// `distributed`: block b is owned by the node the rule routes
// chunk b to. Their GUIDs are reserved in initPerNode, which cannot see
// mainBody's values, so the block count and the block's byte size must be
// compile-time constants (and the size must fit the 32-bit byte count of a
// put or get); otherwise the table stays on node 0 and the debug line says why.
//
//===----------------------------------------------------------------------===//

#include "passes/ArtsUtils.h"
#include "passes/Debug.h"
#include "passes/LoweringUtils.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

namespace mlir::arts {
#define GEN_PASS_DEF_DBPARTITIONING
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {

/// What one acquire's task does with the datablock.
struct AcquireFacts {
  DbAcquireOp acquire;
  EdtOp task;
  BlockArgument view;
  scf::ForOp chunkLoop;  ///< the task's `arts.chunk_loop`, if any
  bool rewritable = true; ///< every access is a load/store through db_ref[0...]
  bool chunked = false;   ///< ... and indexed by the chunk loop's IV in dim 0
  int64_t minOffset = 0, maxOffset = 0;
  std::string why; ///< why not chunked
};

bool allZero(ValueRange indices) {
  return llvm::all_of(indices, [](Value v) {
    auto c = getConstantIntValue(v);
    return c && *c == 0;
  });
}

/// The constant `c` if `index` is `iv + c` (or `iv - c`, or `iv`).
std::optional<int64_t> offsetFrom(Value index, Value iv) {
  if (index == iv)
    return 0;
  if (auto add = index.getDefiningOp<arith::AddIOp>()) {
    if (add.getLhs() == iv)
      return getConstantIntValue(add.getRhs());
    if (add.getRhs() == iv)
      return getConstantIntValue(add.getLhs());
  }
  if (auto sub = index.getDefiningOp<arith::SubIOp>(); sub && sub.getLhs() == iv)
    if (auto c = getConstantIntValue(sub.getRhs()))
      return -*c;
  return std::nullopt;
}

/// True for a load from or store into `ref` (not a store of `ref` itself).
bool isPlainAccess(Operation *user, Value ref) {
  if (auto load = dyn_cast<memref::LoadOp>(user))
    return load.getMemRef() == ref && !load.getIndices().empty();
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return store.getMemRef() == ref && !store.getIndices().empty();
  return false;
}

ValueRange accessIndices(Operation *access) {
  if (auto load = dyn_cast<memref::LoadOp>(access))
    return load.getIndices();
  return cast<memref::StoreOp>(access).getIndices();
}

struct DbPartitioning : arts::impl::DbPartitioningBase<DbPartitioning> {
  void runOnOperation() override {
    SmallVector<DbAllocOp> allocs;
    getOperation()->walk([&](DbAllocOp alloc) {
      if (alloc.getPartition() == PartitionMode::coarse)
        allocs.push_back(alloc);
    });
    auto module = getOperation();
    nodes = 1;
    workersPerNode = 1;
    if (auto attr = module->getAttrOfType<IntegerAttr>("arts.nodes"))
      nodes = attr.getInt();
    if (auto attr = module->getAttrOfType<IntegerAttr>("arts.threads"))
      workersPerNode = attr.getInt();
    for (DbAllocOp alloc : allocs)
      partition(alloc);
  }

  int64_t nodes = 1, workersPerNode = 1;

  AcquireFacts analyse(DbAcquireOp acq) {
    AcquireFacts facts;
    facts.acquire = acq;
    for (OpOperand &use : acq.getPtrs().getUses())
      if (auto task = dyn_cast<EdtOp>(use.getOwner())) {
        facts.task = task;
        unsigned index = use.getOperandNumber() - task.getDeps().getBeginOperandIndex();
        facts.view = task.getBody().front().getArgument(index);
      }
    if (!facts.task) {
      facts.rewritable = false;
      facts.why = "acquire does not feed a task";
      return facts;
    }
    facts.task.getBody().walk([&](scf::ForOp loop) {
      if (loop->hasAttr("arts.chunk_loop"))
        facts.chunkLoop = loop;
    });
    bool first = true;
    facts.chunked = static_cast<bool>(facts.chunkLoop);
    if (!facts.chunkLoop)
      facts.why = "task has no chunk loop";
    for (Operation *user : facts.view.getUsers()) {
      if (isa<DbReleaseOp>(user))
        continue;
      auto ref = dyn_cast<DbRefOp>(user);
      if (!ref || !allZero(ref.getIndices())) {
        facts.rewritable = facts.chunked = false;
        facts.why = "view used by " + user->getName().getStringRef().str();
        continue;
      }
      for (Operation *access : ref.getPayload().getUsers()) {
        if (!isPlainAccess(access, ref.getPayload())) {
          facts.rewritable = facts.chunked = false;
          facts.why = "payload used by " + access->getName().getStringRef().str();
          continue;
        }
        if (!facts.chunked)
          continue;
        std::optional<int64_t> offset;
        if (facts.chunkLoop->isAncestor(access))
          offset = offsetFrom(accessIndices(access).front(), facts.chunkLoop.getInductionVar());
        if (!offset) {
          facts.chunked = false;
          facts.why = "index not derived from the chunk";
          continue;
        }
        facts.minOffset = first ? *offset : std::min(facts.minOffset, *offset);
        facts.maxOffset = first ? *offset : std::max(facts.maxOffset, *offset);
        first = false;
      }
    }
    return facts;
  }

  void partition(DbAllocOp alloc) {
    auto blockType = cast<MemRefType>(cast<MemRefType>(alloc.getPtrs().getType()).getElementType());
    if (blockType.getRank() == 0 || alloc.getSizes().size() != 1)
      return; // scalars stay whole
    SmallVector<AcquireFacts> acquires;
    SmallVector<DbRefOp> hostRefs;
    std::string coarseWhy;
    for (Operation *user : alloc.getPtrs().getUsers()) {
      if (auto acq = dyn_cast<DbAcquireOp>(user)) {
        acquires.push_back(analyse(acq));
      } else if (auto ref = dyn_cast<DbRefOp>(user)) {
        hostRefs.push_back(ref);
        for (Operation *access : ref.getPayload().getUsers())
          if (!isPlainAccess(access, ref.getPayload()))
            coarseWhy = "host code uses the array through " + access->getName().getStringRef().str();
      } else if (!isa<DbFreeOp>(user)) {
        coarseWhy = "table used by " + user->getName().getStringRef().str();
      }
    }
    int64_t workers = 0;
    bool anyChunked = false, internode = false;
    for (AcquireFacts &f : acquires) {
      if (!f.rewritable && coarseWhy.empty())
        coarseWhy = f.why;
      if (f.chunked) {
        anyChunked = true;
        if (auto team = f.task->getAttrOfType<IntegerAttr>("arts.team_workers"))
          workers = std::max<int64_t>(workers, team.getInt());
        workers = std::max<int64_t>(workers, 1);
      } else if (f.acquire.getMode() != ArtsMode::in && coarseWhy.empty() && f.chunkLoop) {
        coarseWhy = "a chunk task writes it at an index not derived from its chunk";
      }
      if (f.task && f.task.getConcurrency() == EdtConcurrency::internode)
        internode = true;
    }
    if (acquires.empty())
      coarseWhy = "no task acquires it";
    else if (!anyChunked && coarseWhy.empty())
      coarseWhy = "no task access is indexed by its chunk";

    if (!coarseWhy.empty()) {
      CARTS_DEBUG("db_partitioning", alloc) << "alloc " << blockType << " -> partition=coarse ("
                                            << coarseWhy << ")\n";
      for (AcquireFacts &f : acquires)
        if (f.chunkLoop && f.acquire.getMode() != ArtsMode::in) {
          f.acquire.setMode(ArtsMode::concurrent);
          CARTS_DEBUG("db_partitioning", f.acquire)
              << "acquire mode=concurrent full-range (chunk tasks of one loop share the write)\n";
        }
      return;
    }

    // Mechanism: blocks of B rows.
    Location loc = alloc.getLoc();
    OpBuilder b(alloc);
    b.setInsertionPointAfter(alloc);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value rows = alloc.getElementSizes().front();
    Value rowsPerBlock, blocks;
    std::optional<int64_t> staticRows = evaluateConstant(rows);
    if (staticRows) {
      int64_t perBlock = std::max<int64_t>((*staticRows + workers - 1) / workers, 1);
      rowsPerBlock = arith::ConstantIndexOp::create(b, loc, perBlock);
      blocks = arith::ConstantIndexOp::create(
          b, loc, std::max<int64_t>((*staticRows + perBlock - 1) / perBlock, 1));
    } else {
      rowsPerBlock = arith::MaxSIOp::create(
          b, loc, ceilDivIndex(b, loc, rows, arith::ConstantIndexOp::create(b, loc, workers)),
          one);
      blocks = arith::MaxSIOp::create(b, loc, ceilDivIndex(b, loc, rows, rowsPerBlock), one);
    }
    SmallVector<int64_t> shape(blockType.getShape());
    shape[0] = ShapedType::kDynamic;
    auto newBlockType = MemRefType::get(shape, blockType.getElementType());
    auto guidsType = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
    auto ptrsType = MemRefType::get({ShapedType::kDynamic}, newBlockType);
    SmallVector<Value> elementSizes(alloc.getElementSizes());
    elementSizes[0] = rowsPerBlock;
    std::string localWhy; // why a block table on several nodes stays on node 0
    if (nodes > 1 && !internode)
      localWhy = "no internode task uses it";
    else if (nodes > 1)
      localWhy = distributableWhyNot(alloc, blockType, rowsPerBlock);
    bool distributed = nodes > 1 && localWhy.empty();
    auto blocked = DbAllocOp::create(b, loc, guidsType, ptrsType, alloc.getModeAttr(),
                                     alloc.getDbModeAttr(),
                                     PartitionModeAttr::get(b.getContext(), PartitionMode::block),
                                     alloc.getRoute(), ValueRange{blocks}, elementSizes, Value(),
                                     distributed ? b.getUnitAttr() : nullptr);
    if (distributed)
      blocked->setAttr("arts.owner_rule",
                       b.getDictionaryAttr({b.getNamedAttr("nodes", b.getI64IntegerAttr(nodes)),
                                            b.getNamedAttr("workers_per_node",
                                                           b.getI64IntegerAttr(workersPerNode))}));
    CARTS_DEBUG("db_partitioning", alloc)
        << "alloc " << blockType << " -> partition=block blocks=ceil(rows / " << workers
        << ") block=" << newBlockType << " distributed=" << (distributed ? "yes" : "no")
        << (distributed ? " owner route(b) = floor(b / chunksPerWorker) % " + std::to_string(nodes)
                        : std::string())
        << (localWhy.empty() ? std::string() : " (" + localWhy + ")")
        << "\n";

    for (AcquireFacts &f : acquires) {
      OpBuilder ab(f.acquire);
      Location aloc = f.acquire.getLoc();
      Value first;
      SmallVector<Value> offsets, sizes;
      if (f.chunked) {
        Value zero = arith::ConstantIndexOp::create(ab, aloc, 0);
        Value lo = arith::AddIOp::create(ab, aloc, f.chunkLoop.getLowerBound(),
                                         arith::ConstantIndexOp::create(ab, aloc, f.minOffset));
        first = arith::DivSIOp::create(ab, aloc, arith::MaxSIOp::create(ab, aloc, lo, zero), rowsPerBlock);
        Value hi = arith::AddIOp::create(ab, aloc, f.chunkLoop.getUpperBound(),
                                         arith::ConstantIndexOp::create(ab, aloc, f.maxOffset - 1));
        Value last = arith::MinSIOp::create(
            ab, aloc,
            arith::DivSIOp::create(ab, aloc, arith::MaxSIOp::create(ab, aloc, hi, zero), rowsPerBlock),
            arith::SubIOp::create(ab, aloc, blocks, arith::ConstantIndexOp::create(ab, aloc, 1)));
        Value count = arith::MaxSIOp::create(
            ab, aloc, arith::AddIOp::create(ab, aloc, arith::SubIOp::create(ab, aloc, last, first),
                                            arith::ConstantIndexOp::create(ab, aloc, 1)),
            arith::ConstantIndexOp::create(ab, aloc, 1));
        offsets.push_back(first);
        sizes.push_back(count);
      }
      auto acq = DbAcquireOp::create(ab, aloc, guidsType, ptrsType, f.acquire.getModeAttr(),
                                     blocked.getGuids(), blocked.getPtrs(), ValueRange{}, offsets,
                                     sizes, PartitionModeAttr::get(ab.getContext(), PartitionMode::block),
                                     f.chunked ? nullptr : ab.getUnitAttr());
      CARTS_DEBUG("db_partitioning", f.acquire)
          << "acquire mode=" << stringifyArtsMode(f.acquire.getMode()) << " partition=block "
          << (f.chunked ? "blocks of its chunk (offsets " + std::to_string(f.minOffset) + ".." +
                              std::to_string(f.maxOffset) + ")"
                        : "full-range (" + f.why + ")")
          << "\n";
      f.acquire.getPtrs().replaceAllUsesWith(acq.getPtrs());
      f.acquire.getGuids().replaceAllUsesWith(acq.getGuids());
      f.view.setType(ptrsType);
      rewriteRefs(f.view, newBlockType, rowsPerBlock, first);
      f.acquire.erase();
    }
    for (DbRefOp ref : hostRefs)
      rewriteRef(ref, blocked.getPtrs(), newBlockType, rowsPerBlock, Value());
    for (Operation *user : llvm::make_early_inc_range(alloc.getPtrs().getUsers()))
      if (auto free = dyn_cast<DbFreeOp>(user)) {
        OpBuilder fb(free);
        DbFreeOp::create(fb, free.getLoc(), blocked.getGuids(), blocked.getPtrs());
        free.erase();
      }
    alloc.erase();
  }

  /// Empty if a block table of this allocation can be distributed, else why
  /// not: initPerNode needs the block count and the block's byte size as
  /// constants, and puts and gets count bytes in 32 bits.
  std::string distributableWhyNot(DbAllocOp alloc, MemRefType blockType, Value rowsPerBlock) {
    if (!evaluateConstant(alloc.getElementSizes().front()))
      return "the row count is not a compile-time constant, and initPerNode reserves the "
             "blocks before mainBody runs";
    std::optional<int64_t> elementBytes = elementByteSize(blockType.getElementType());
    if (!elementBytes)
      return "no byte size for its elements";
    int64_t bytes = *elementBytes * *evaluateConstant(rowsPerBlock);
    for (Value size : alloc.getElementSizes().drop_front()) {
      std::optional<int64_t> extent = evaluateConstant(size);
      if (!extent)
        return "a block dimension is not a compile-time constant, and initPerNode creates the "
               "blocks before mainBody runs";
      bytes *= *extent;
    }
    if (bytes > std::numeric_limits<uint32_t>::max())
      return "a block of " + std::to_string(bytes) +
             " bytes does not fit the 32-bit byte count of a put or get";
    return "";
  }

  /// Rewrites every `db_ref(view)[0]` access inside a task.
  void rewriteRefs(Value view, MemRefType blockType, Value rowsPerBlock, Value first) {
    for (Operation *user : llvm::make_early_inc_range(view.getUsers()))
      if (auto ref = dyn_cast<DbRefOp>(user))
        rewriteRef(ref, view, blockType, rowsPerBlock, first);
  }

  /// `ref[i, j...]` -> `db_ref(table)[i / B - first][i mod B, j...]`.
  void rewriteRef(DbRefOp ref, Value table, MemRefType blockType, Value rowsPerBlock, Value first) {
    for (Operation *access : llvm::make_early_inc_range(ref.getPayload().getUsers())) {
      OpBuilder b(access);
      Location loc = access->getLoc();
      SmallVector<Value> indices(accessIndices(access));
      Value block = arith::DivUIOp::create(b, loc, indices[0], rowsPerBlock);
      if (first)
        block = arith::SubIOp::create(b, loc, block, first);
      indices[0] = arith::RemUIOp::create(b, loc, indices[0], rowsPerBlock);
      Value payload = DbRefOp::create(b, loc, blockType, table, ValueRange{block});
      if (auto load = dyn_cast<memref::LoadOp>(access)) {
        Value value = memref::LoadOp::create(b, loc, payload, indices);
        load.getResult().replaceAllUsesWith(value);
      } else {
        auto store = cast<memref::StoreOp>(access);
        memref::StoreOp::create(b, loc, store.getValueToStore(), payload, indices);
      }
      access->erase();
    }
    ref.erase();
  }
};
} // namespace
