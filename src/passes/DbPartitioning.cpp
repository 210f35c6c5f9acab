//===- DbPartitioning.cpp - choose each datablock's layout ----------------===//
//
// Described in Passes.td (`DbPartitioning`); below, how it does it. After
// for-lowering every chunk task acquires whole (coarse) datablocks. A
// datablock whose accesses in chunk tasks are indexed, in one dimension, by the
// chunk loop's induction variable (plus a constant) is split into blocks along
// that dimension, so each task acquires only the blocks of its chunk and tasks
// of one loop no longer share a datablock. Each dimension is tried and the one
// kept leaves the tasks the fewest bytes to move (`movedBytesEstimate`):
// batchnorm's statistics loops index x by channel, its second dimension, and so
// does its collapsed loop once for-lowering chunks it by channel. On one node,
// where nothing moves, that is the leading dimension unless only another one
// gives the chunks blocks of their own (the 3-D stencil's loop over its arrays'
// last dimension). Below, "rows" are the slices along the chosen dimension; a
// block is its own allocation, so the slices of one block are contiguous whichever
// dimension it cuts; cut along another dimension than the first, on one node or
// in edge blocks, a block is laid out with the cut dimension first (the others in
// their order), so that blocks of different row counts differ in their leading
// extent only (what a task's one view of its blocks needs). Block b holds
// rows [b*B, (b+1)*B) with B = ceil(rows / shares), the shares being the
// static chunks of the loops using it (one per worker, or several per worker
// where for-lowering cut heavy shares: `arts.chunks_per_worker`): the static
// chunks of a loop over the rows are (up to the loop's bounds) the blocks, so
// the shared routing rule gives a block's owner and its chunk's task the same
// node.
// `iv + c` is matched on index values and, for reads, also computed in a
// narrower integer and cast back, as C front ends write `A[i - 1]` for an
// `int i`; a write is taken as its chunk's rows through such casts only at
// c = 0.
//
// The decision (coarse or blocks, which writers share a block, whether blocks
// spread over the nodes) is policy/Partitioning.h's; this pass gathers the IR
// facts it reads and applies what it returns.
//
// Mechanism: the allocation, acquires and every access are rewritten:
// `A[i, j]` becomes `db_ref(view)[i / B - first][i mod B, j]`. A chunk task
// acquires the blocks of rows [lo + min c, hi - 1 + max c] of its chunk loop
// `lo .. hi`: a stencil read (c in [-1, +1]) takes its chunk's blocks plus a
// halo, the neighbouring rows, as a plain read, even of a block owned by
// another node. Its accesses select their block once per row of the chunk loop.
// With more than one node, block tables used by internode tasks are marked
// `distributed`: block b is owned by the node the rule routes
// chunk b to. A distributed table that tasks read with a halo of h rows is cut
// in three blocks a share (policy's haloEdgeRows): the share's first h rows,
// the rows between, and its last h rows (`arts.edge_rows` = [dimension, h,
// rows between in the last share, which may be shorter],
// which db-lowering reads to give each block its own size). A stencil task then
// fetches from another node only the edge next to its chunk, and acquires a
// handful of blocks; the owner rule over three blocks a share still gives each
// block its chunk's node. (Uniform blocks of a few rows moved 4x the halo and
// made a task acquire over a hundred blocks.) Their GUIDs are reserved in initPerNode, which cannot see
// mainBody's values, so the block count and the block's byte size must be
// compile-time constants (and the size must fit the 32-bit byte count of a
// put or get); otherwise the table stays on node 0 and the debug line says why.
//
//===----------------------------------------------------------------------===//

#include "policy/Chunking.h"
#include "policy/Partitioning.h"
#include "policy/Routing.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "support/LoweringUtils.h"
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
  bool soleChunk = false; ///< the task is launched once in its epoch: its loop has one chunk
  bool rewritable = true; ///< every access is a load/store through db_ref[0...]
  bool chunked = false;   ///< ... and indexed by the chunk loop's IV in dimension `dim`
  unsigned dim = 0;       ///< the dimension the blocks would cut
  int64_t minOffset = 0, maxOffset = 0;
  int64_t launches = 0; ///< the chunks its launch loop makes (launchTrips), 0: unknown
  std::string why; ///< why not chunked
};

/// How rows fall into blocks: `rowsPerBlock` rows a block, or, where `edge` is set, each
/// share of `share` rows cut in three blocks: its first `edge` rows, the `rowsPerBlock`
/// (= share - 2 * edge) rows between, and its last `edge` rows.
struct Layout {
  Value rowsPerBlock;
  int64_t edge = 0, share = 0;
  int64_t lastShare = 0, lastShareRow = 0; ///< the last share's rows, and its first row
  /// The cut dimension is the leading one of each block (the others keep their order):
  /// blocks of different rows then differ in their leading extent only.
  bool leading = false;
};

/// Whether `chunkLoop`, in `task`, is the only chunk of its loop: the task is created once per
/// run of its epoch (every loop between them makes one trip, by constants), and either it is
/// in for-lowering's launch loop (one trip: one chunk of all iterations) or its chunk loop's
/// constant bounds cover all of the loop's `arts.chunk_trips`.
bool isSoleChunk(EdtOp task, scf::ForOp chunkLoop) {
  bool launched = false;
  for (Operation *up = task->getParentOp(); up; up = up->getParentOp()) {
    if (isa<EpochOp>(up)) {
      if (launched)
        return true;
      auto all = artsDialect(chunkLoop)->getChunkTripsAttrHelper().getAttr(chunkLoop);
      std::optional<int64_t> trips = constantTripCount(chunkLoop);
      return all && trips && *trips >= all.getInt();
    }
    if (auto loop = dyn_cast<scf::ForOp>(up)) {
      std::optional<int64_t> trips = constantTripCount(loop);
      if (!trips || *trips > 1)
        return false;
      launched |= artsDialect(loop)->getLaunchLoopAttrHelper().isAttrPresent(loop);
    } else if (!isa<scf::IfOp>(up)) {
      return false;
    }
  }
  return false;
}

/// The constant trip count of for-lowering's launch loop around `task` (its chunk count), or
/// 0 when the task is not created by one or the count is not a constant.
int64_t launchTrips(EdtOp task) {
  auto loop = dyn_cast_or_null<scf::ForOp>(task->getParentOp());
  if (!loop || !artsDialect(loop)->getLaunchLoopAttrHelper().isAttrPresent(loop))
    return 0;
  std::optional<int64_t> trips = constantTripCount(loop);
  return trips ? *trips : 0;
}

bool allZero(ValueRange indices) {
  return llvm::all_of(indices, [](Value v) {
    auto c = getConstantIntValue(v);
    return c && *c == 0;
  });
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
    nodes = moduleNodes(module);
    workersPerNode = moduleThreads(module);
    for (DbAllocOp alloc : allocs)
      partition(alloc);
  }

  int64_t nodes = 1, workersPerNode = 1;

  AcquireFacts analyse(DbAcquireOp acq, unsigned dim) {
    AcquireFacts facts;
    facts.acquire = acq;
    facts.dim = dim;
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
      if (artsDialect(loop)->getChunkLoopAttrHelper().isAttrPresent(loop))
        facts.chunkLoop = loop;
    });
    bool first = true;
    facts.chunked = static_cast<bool>(facts.chunkLoop);
    facts.soleChunk = facts.chunkLoop && isSoleChunk(facts.task, facts.chunkLoop);
    // On one node, blocks follow the chunks a loop makes; over several, each node's share.
    facts.launches = nodes <= 1 && facts.chunkLoop ? launchTrips(facts.task) : 0;
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
        std::optional<RowOffset> row;
        if (facts.chunkLoop->isAncestor(access))
          row = rowOffsetFrom(accessIndices(access)[dim], facts.chunkLoop.getInductionVar());
        // Only reads take a narrowed index off their own rows; writes are
        // matched as before, so such a write keeps the datablock coarse.
        if (row && row->narrowed && row->offset != 0 && acq.getMode() != ArtsMode::in)
          row.reset();
        if (!row) {
          facts.chunked = false;
          facts.why = "index not derived from the chunk";
          continue;
        }
        facts.minOffset = first ? row->offset : std::min(facts.minOffset, row->offset);
        facts.maxOffset = first ? row->offset : std::max(facts.maxOffset, row->offset);
        first = false;
      }
    }
    return facts;
  }

  /// How many chunks a worker's share of the chunk loop is cut in (for-lowering's
  /// `arts.chunks_per_worker`, 1 when absent or not a chunk loop).
  static int64_t chunksPerWorker(scf::ForOp chunkLoop) {
    auto attr = chunkLoop ? artsDialect(chunkLoop)->getChunksPerWorkerAttrHelper().getAttr(chunkLoop)
                          : IntegerAttr();
    return attr ? std::max<int64_t>(attr.getInt(), 1) : 1;
  }

  /// The facts of one acquire as the partitioning policy reads them.
  static AcquireSummary summarise(AcquireFacts f) {
    AcquireSummary a;
    a.rewritable = f.rewritable;
    a.chunked = f.chunked;
    a.inChunkTask = static_cast<bool>(f.chunkLoop);
    a.soleChunk = f.soleChunk;
    a.writes = f.acquire.getMode() != ArtsMode::in;
    a.internode = f.task && f.task.getConcurrency() == EdtConcurrency::internode;
    if (f.task)
      if (auto team = artsDialect(f.task)->getTeamWorkersAttrHelper().getAttr(f.task))
        a.teamWorkers = team.getInt();
    a.chunksPerWorker = chunksPerWorker(f.chunkLoop);
    a.launches = f.launches;
    a.why = f.why;
    return a;
  }

  void partition(DbAllocOp alloc) {
    auto blockType = cast<MemRefType>(cast<MemRefType>(alloc.getPtrs().getType()).getElementType());
    if (blockType.getRank() == 0 || alloc.getSizes().size() != 1)
      return; // scalars stay whole
    SmallVector<DbAcquireOp> acquireOps;
    SmallVector<DbRefOp> hostRefs;
    std::string coarseWhy;
    for (Operation *user : alloc.getPtrs().getUsers()) {
      if (auto acq = dyn_cast<DbAcquireOp>(user)) {
        acquireOps.push_back(acq);
      } else if (auto ref = dyn_cast<DbRefOp>(user)) {
        hostRefs.push_back(ref);
        for (Operation *access : ref.getPayload().getUsers())
          if (!isPlainAccess(access, ref.getPayload()))
            coarseWhy = "host code uses the array through " + access->getName().getStringRef().str();
      } else if (!isa<DbFreeOp>(user)) {
        coarseWhy = "table used by " + user->getName().getStringRef().str();
      }
    }
    // The dimension to cut: the one whose cut leaves the fewest bytes to move (chunk tasks
    // that cannot take their own blocks of it take the whole table, most of it from other
    // nodes); on one node, where nothing moves, the leading one unless only another lets
    // the chunk tasks take blocks of their own.
    SmallVector<AcquireFacts> acquires;
    SmallVector<AcquireSummary> summaries;
    PartitionDecision decision;
    unsigned dim = 0;
    unsigned dims = blockType.getRank();
    std::string estimates;
    int blockable = 0;
    std::optional<int64_t> bestBytes;
    for (unsigned d = 0; d < dims; ++d) {
      if (nodes <= 1 && d > 0 && decision.block)
        break; // one node: the leading dimension, when it can be cut, is the choice
      SmallVector<AcquireFacts> facts;
      SmallVector<AcquireSummary> summary;
      for (DbAcquireOp acq : acquireOps) {
        facts.push_back(analyse(acq, d));
        summary.push_back(summarise(facts.back()));
      }
      PartitionDecision choice = decidePartition(summary, coarseWhy, nodes);
      std::optional<int64_t> bytes;
      if (choice.block) {
        bytes = movedBytesEstimate(alloc, summary);
        ++blockable;
      }
      if (dims > 1)
        estimates += (estimates.empty() ? "" : ", ") + std::string("dim ") + std::to_string(d) +
                     " " + (bytes ? std::to_string(*bytes) + " bytes" : "coarse");
      if (d == 0 || (bytes && (!bestBytes || *bytes < *bestBytes))) {
        bestBytes = bytes;
        acquires = std::move(facts);
        summaries = std::move(summary);
        decision = choice;
        dim = d;
      }
    }
    if (!decision.block) {
      CARTS_DEBUG("db-partitioning", alloc) << "alloc " << blockType << " -> partition=coarse ("
                                            << decision.why << ")\n";
      for (auto [f, summary] : llvm::zip(acquires, summaries))
        if (sharesCoarseWrite(summary)) {
          f.acquire.setMode(ArtsMode::concurrent);
          CARTS_DEBUG("db-partitioning", f.acquire)
              << "acquire mode=concurrent full-range (chunk tasks of one loop share the write)\n";
        } else if (summary.soleChunk && summary.writes) {
          CARTS_DEBUG("db-partitioning", f.acquire)
              << "acquire mode=" << stringifyArtsMode(f.acquire.getMode())
              << " full-range (the loop's only chunk shares the write with nobody)\n";
        }
      return;
    }
    int64_t shares = decision.shares;
    // On several nodes, a stencil's tasks read a few rows of the blocks next to theirs:
    // smaller blocks make that a halo instead of the neighbour's whole block.
    int64_t halo = 0;
    for (AcquireFacts &f : acquires)
      if (f.chunked && f.acquire.getMode() == ArtsMode::in)
        halo = std::max<int64_t>({halo, -f.minOffset, f.maxOffset});

    // Mechanism: blocks of B rows.
    Location loc = alloc.getLoc();
    OpBuilder b(alloc);
    b.setInsertionPointAfter(alloc);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value rows = alloc.getElementSizes()[dim];
    Value rowsPerBlock, blocks;
    std::optional<int64_t> staticRows = evaluateConstant(rows);
    Layout layout;
    // A task sees every block of a dependency through one shape, which is right for an edge
    // block only where the cut dimension does not enter the other dimensions' strides (a 3-D
    // table cut in planes along its last dimension gave an edge block of 2 planes the strides
    // of 16: a node crashed). Cut along another dimension than the first, the edge blocks'
    // table leads each block with the cut dimension: every access goes through the
    // rewriting below, so the layout inside a block is this pass's to choose.
    if (staticRows && nodes > 1 && decision.internode &&
        distributableWhyNot(alloc, blockType, dim,
                            (*staticRows + shares - 1) / std::max<int64_t>(shares, 1))
            .empty())
      if (int64_t edge = haloEdgeRows(*staticRows, shares, nodes * workersPerNode, halo)) {
        layout.edge = edge;
        layout.share = (*staticRows + shares - 1) / shares;
        layout.lastShareRow = (shares - 1) * layout.share;
        layout.lastShare = *staticRows - layout.lastShareRow;
      }
    if (layout.edge) {
      rowsPerBlock = arith::ConstantIndexOp::create(b, loc, layout.share - 2 * layout.edge);
      blocks = arith::ConstantIndexOp::create(b, loc, 3 * shares);
    } else if (staticRows) {
      int64_t perBlock = std::max<int64_t>((*staticRows + shares - 1) / shares, 1);
      rowsPerBlock = arith::ConstantIndexOp::create(b, loc, perBlock);
      blocks = arith::ConstantIndexOp::create(
          b, loc, std::max<int64_t>((*staticRows + perBlock - 1) / perBlock, 1));
    } else {
      rowsPerBlock = arith::MaxSIOp::create(
          b, loc, ceilDivIndex(b, loc, rows, arith::ConstantIndexOp::create(b, loc, shares)),
          one);
      blocks = arith::MaxSIOp::create(b, loc, ceilDivIndex(b, loc, rows, rowsPerBlock), one);
    }
    layout.rowsPerBlock = rowsPerBlock;
    // The cut dimension leads each block where blocks differ in it (edges) and on one node
    // (where the cut is the parallel loop's and the loops inside walk the others); over
    // several nodes plain blocks keep the array's order.
    layout.leading = dim != 0 && (layout.edge || nodes <= 1);
    SmallVector<int64_t> shape(blockType.getShape());
    shape[dim] = ShapedType::kDynamic;
    SmallVector<Value> elementSizes(alloc.getElementSizes());
    elementSizes[dim] = rowsPerBlock;
    if (layout.leading) {
      std::rotate(shape.begin(), shape.begin() + dim, shape.begin() + dim + 1);
      std::rotate(elementSizes.begin(), elementSizes.begin() + dim,
                  elementSizes.begin() + dim + 1);
    }
    auto newBlockType = MemRefType::get(shape, blockType.getElementType());
    auto guidsType = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
    auto ptrsType = MemRefType::get({ShapedType::kDynamic}, newBlockType);
    std::string localWhy = keptOnNodeZeroWhy(
        nodes, decision.internode,
        nodes > 1 && decision.internode
            ? distributableWhyNot(alloc, blockType, dim, evaluateConstant(rowsPerBlock))
            : "");
    bool distributed = nodes > 1 && localWhy.empty();
    auto blocked = DbAllocOp::create(b, loc, guidsType, ptrsType, alloc.getModeAttr(),
                                     alloc.getDbModeAttr(),
                                     PartitionModeAttr::get(b.getContext(), PartitionMode::block),
                                     alloc.getRoute(), ValueRange{blocks}, elementSizes, Value(),
                                     distributed ? b.getUnitAttr() : nullptr);
    if (distributed)
      setOwnerRule(blocked, {nodes, workersPerNode});
    if (layout.edge) // the DbLowering of a block's size reads it
      artsDialect(blocked)->getEdgeRowsAttrHelper().setAttr(
          blocked, b.getDenseI64ArrayAttr({layout.leading ? 0 : static_cast<int64_t>(dim), layout.edge,
                                           layout.lastShare - 2 * layout.edge}));
    CARTS_DEBUG("db-partitioning", alloc)
        << "alloc " << blockType << " -> partition=block blocks="
        << (layout.edge ? "3 per share of " + std::to_string(layout.share) + " rows: edges of " +
                              std::to_string(layout.edge) + " and " +
                              std::to_string(layout.share - 2 * layout.edge) +
                              " rows between" + (layout.leading ? ", the cut dimension first in each block" : "") +
                              (layout.lastShare != layout.share
                                   ? ", the last share " + std::to_string(layout.lastShare) +
                                         " rows"
                                   : std::string()) +
                              " (halo of " + std::to_string(halo) +
                           " rows across nodes; " + std::to_string(shares) + " shares)"
                     : "ceil(rows / " + std::to_string(shares) + ")")
        << (blockable > 1 || dim != 0 ? " dim=" + std::to_string(dim) + " (bytes the tasks move per run of "
                       "their loops, estimated: " + estimates + ")"
                     : std::string())
        << " block=" << newBlockType << " distributed=" << (distributed ? "yes" : "no")
        << (distributed ? " owner " + describeRoute(nodes, workersPerNode, nodes) : std::string())
        << (localWhy.empty() ? std::string() : " (" + localWhy + ")")
        << "\n";

    for (size_t k = 0; k < acquires.size(); ++k) {
      AcquireFacts &f = acquires[k];
      const AcquireSummary &summary = summaries[k];
      OpBuilder ab(f.acquire);
      Location aloc = f.acquire.getLoc();
      Value first, count;
      SmallVector<Value> offsets, sizes;
      if (sharesBoundaryBlocks(
              summary,
              [&] {
                return chunkHoldsWholeBlocks(f, summary.chunks(), staticRows, shares);
              },
              nodes)) {
        f.acquire.setMode(ArtsMode::concurrent);
        CARTS_DEBUG("db-partitioning", f.acquire)
            << "acquire mode=concurrent: chunks are not aligned with blocks, neighbours share "
               "boundary blocks\n";
      } else if (summary.soleChunk && summary.writes && f.chunked) {
        CARTS_DEBUG("db-partitioning", f.acquire)
            << "acquire mode=" << stringifyArtsMode(f.acquire.getMode())
            << ": the loop's only chunk, no neighbour shares its blocks\n";
      }
      if (f.chunked) {
        std::tie(first, count) = chunkBlocks(ab, aloc, f, layout, blocks);
        offsets.push_back(first);
        sizes.push_back(count);
      }
      auto acq = DbAcquireOp::create(ab, aloc, guidsType, ptrsType, f.acquire.getModeAttr(),
                                     blocked.getGuids(), blocked.getPtrs(), ValueRange{}, offsets,
                                     sizes, PartitionModeAttr::get(ab.getContext(), PartitionMode::block),
                                     f.chunked ? nullptr : ab.getUnitAttr(), nullptr);
      CARTS_DEBUG("db-partitioning", f.acquire)
          << "acquire mode=" << stringifyArtsMode(f.acquire.getMode()) << " partition=block "
          << (f.chunked ? chunkRangeText(f) : "full-range (" + f.why + ")")
          << "\n";
      f.acquire.getPtrs().replaceAllUsesWith(acq.getPtrs());
      f.acquire.getGuids().replaceAllUsesWith(acq.getGuids());
      f.view.setType(ptrsType);
      rewriteRefs(f, newBlockType, layout, first, count);
      f.acquire.erase();
    }
    for (DbRefOp ref : hostRefs) {
      for (Operation *access : llvm::make_early_inc_range(ref.getPayload().getUsers())) {
        OpBuilder hb(access);
        auto [payload, localRow] = selectRow(hb, access->getLoc(), blocked.getPtrs(), newBlockType,
                                             accessIndices(access)[dim], layout);
        replaceAccess(access, payload, localRow, dim, layout.leading);
      }
      ref.erase();
    }
    for (Operation *user : llvm::make_early_inc_range(alloc.getPtrs().getUsers()))
      if (auto free = dyn_cast<DbFreeOp>(user)) {
        OpBuilder fb(free);
        DbFreeOp::create(fb, free.getLoc(), blocked.getGuids(), blocked.getPtrs());
        free.erase();
      }
    alloc.erase();
  }

  /// The bytes a cut leaves the tasks to move each time their loops run, as the choice of a
  /// dimension compares them: every acquire of a task that may run on another node and
  /// takes the whole table (its accesses are not indexed by its chunk in that dimension)
  /// moves the share of the table other nodes own, (nodes - 1) / nodes of it. A chunk's own
  /// blocks and its halo rows count as nothing.
  int64_t movedBytesEstimate(DbAllocOp alloc, ArrayRef<AcquireSummary> summaries) {
    int64_t share = allocationBytes(alloc) / nodes * (nodes - 1);
    int64_t total = 0;
    for (const AcquireSummary &a : summaries)
      if (a.internode && !a.chunked)
        total += share;
    return total;
  }

  /// Whether each chunk of the acquire's loop covers whole blocks, shared with
  /// no other chunk: the loop's `chunks` static chunks over rows 0 .. rows-1,
  /// accessed at the chunk row itself, each a whole number of blocks of `shares`
  /// (chunk k is block k when chunks == shares; a loop whose worker shares are
  /// not cut, beside one whose are, has chunks of several blocks).
  static bool chunkHoldsWholeBlocks(AcquireFacts &f, int64_t chunks, std::optional<int64_t> rows,
                                    int64_t shares) {
    if (!rows || *rows <= 0 || chunks <= 0 || f.minOffset != 0 || f.maxOffset != 0)
      return false;
    auto origin = artsDialect(f.chunkLoop)->getChunkOriginAttrHelper().getAttr(f.chunkLoop);
    auto trips = artsDialect(f.chunkLoop)->getChunkTripsAttrHelper().getAttr(f.chunkLoop);
    auto step = getConstantIntValue(f.chunkLoop.getStep());
    if (!origin || origin.getInt() != 0 || !trips || trips.getInt() != *rows || !step ||
        *step != 1)
      return false;
    // The rows of a chunk: for-lowering's constant chunk size (also where its floor evened
    // the chunks out), else a static share's ceil(rows / chunks).
    int64_t chunkRows;
    if (auto known = artsDialect(f.chunkLoop)->getChunkRowsAttrHelper().getAttr(f.chunkLoop))
      chunkRows = known.getInt();
    else if (artsDialect(f.chunkLoop)->getChunkStaticShareAttrHelper().isAttrPresent(f.chunkLoop))
      chunkRows = (*rows + chunks - 1) / chunks;
    else
      return false;
    int64_t blockRows = std::max<int64_t>((*rows + shares - 1) / shares, 1);
    return chunkRows > 0 && chunkRows % blockRows == 0;
  }

  /// The blocks an acquire of a chunk task takes, as (first, count) computed
  /// in the launcher: those holding rows [lo + minOffset, hi - 1 + maxOffset]
  /// of the chunk loop `lo .. hi`, clamped to the table. The chunk loop's own
  /// bounds are used, as chunks need not start on a block boundary (a loop
  /// from 1 to n - 1 has chunks of ceil((n - 2) / workers) rows, blocks have
  /// ceil(n / workers)).
  std::pair<Value, Value> chunkBlocks(OpBuilder &b, Location loc, AcquireFacts &f,
                                      const Layout &layout, Value blocks) {
    auto constant = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
    auto blockOf = [&](Value row) {
      Value clamped = arith::MaxSIOp::create(b, loc, row, constant(0));
      return blockAndRow(b, loc, clamped, layout, /*signedDivision=*/true).first;
    };
    Value lastBlock = arith::SubIOp::create(b, loc, blocks, constant(1));
    Value lo = arith::AddIOp::create(b, loc, f.chunkLoop.getLowerBound(), constant(f.minOffset));
    Value hi = arith::AddIOp::create(b, loc, f.chunkLoop.getUpperBound(),
                                     constant(f.maxOffset - 1));
    Value first = arith::MinSIOp::create(b, loc, blockOf(lo), lastBlock);
    Value last = arith::MinSIOp::create(b, loc, blockOf(hi), lastBlock);
    Value span = arith::SubIOp::create(b, loc, last, first);
    Value count = arith::MaxSIOp::create(b, loc, arith::AddIOp::create(b, loc, span, constant(1)),
                                         constant(1));
    return {first, count};
  }

  /// The debug text of a chunked acquire: a read reaching rows of the
  /// neighbouring chunks is a halo acquire.
  static std::string chunkRangeText(AcquireFacts &f) {
    auto signedText = [](int64_t v) { return (v < 0 ? "" : "+") + std::to_string(v); };
    if (f.acquire.getMode() == ArtsMode::in && (f.minOffset != 0 || f.maxOffset != 0))
      return "halo rows [" + signedText(f.minOffset) + ", " + signedText(f.maxOffset) +
             "] of its chunk";
    return "blocks of its chunk (offsets " + std::to_string(f.minOffset) + ".." +
           std::to_string(f.maxOffset) + ")";
  }

  /// Empty if a block table of this allocation can be distributed, else why
  /// not: initPerNode makes the blocks once, before mainBody runs, so the
  /// allocation must run once and its block count and block byte size be
  /// constants; puts and gets count bytes in 32 bits.
  std::string distributableWhyNot(DbAllocOp alloc, MemRefType blockType, unsigned dim,
                                  std::optional<int64_t> rowsPerBlock) {
    if (std::string again = runsMoreThanOnceWhy(alloc); !again.empty())
      return "the allocation may run more than once: " + again +
             ", and initPerNode makes its blocks once";
    if (!evaluateConstant(alloc.getElementSizes()[dim]))
      return "the row count is not a compile-time constant, and initPerNode reserves the "
             "blocks before mainBody runs";
    std::optional<int64_t> elementBytes = elementByteSize(blockType.getElementType());
    if (!elementBytes)
      return "no byte size for its elements";
    int64_t bytes = *elementBytes * *rowsPerBlock;
    for (auto [d, size] : llvm::enumerate(alloc.getElementSizes())) {
      if (d == dim)
        continue;
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

  /// Rewrites every `db_ref(view)[0]` access inside a task. An access of a
  /// chunked acquire with only loops between it and the chunk loop selects
  /// its block once per row, at the top of the chunk loop: the pre-lowering
  /// loop-invariant code motion cannot hoist a division by a block size known
  /// only at run time. That selection runs for rows whose accesses may not:
  /// its block index is clamped to the acquired blocks.
  void rewriteRefs(AcquireFacts &f, MemRefType blockType, const Layout &layout, Value first,
                   Value count) {
    llvm::SmallDenseMap<int64_t, std::pair<Value, Value>> perRow; // offset -> payload, row
    for (Operation *user : llvm::make_early_inc_range(f.view.getUsers())) {
      auto ref = dyn_cast<DbRefOp>(user);
      if (!ref)
        continue;
      for (Operation *access : llvm::make_early_inc_range(ref.getPayload().getUsers())) {
        std::optional<RowOffset> row;
        if (f.chunked && onlyLoopsBetween(access, f.chunkLoop))
          row = rowOffsetFrom(accessIndices(access)[f.dim], f.chunkLoop.getInductionVar());
        if (!row) {
          OpBuilder b(access);
          auto [payload, localRow] = selectRow(b, access->getLoc(), f.view, blockType,
                                               accessIndices(access)[f.dim], layout, first);
          replaceAccess(access, payload, localRow, f.dim, layout.leading);
          continue;
        }
        auto [it, inserted] = perRow.try_emplace(row->offset);
        if (inserted) {
          auto b = OpBuilder::atBlockBegin(f.chunkLoop.getBody());
          Location loc = f.chunkLoop.getLoc();
          Value index = f.chunkLoop.getInductionVar();
          if (row->offset != 0)
            index = arith::AddIOp::create(
                b, loc, index, arith::ConstantIndexOp::create(b, loc, row->offset));
          it->second = selectRow(b, loc, f.view, blockType, index, layout, first, count);
        }
        replaceAccess(access, it->second.first, it->second.second, f.dim, layout.leading);
      }
      ref.erase();
    }
  }

  static bool onlyLoopsBetween(Operation *access, scf::ForOp loop) {
    for (Operation *parent = access->getParentOp(); parent != loop; parent = parent->getParentOp())
      if (!isa<scf::ForOp>(parent))
        return false;
    return true;
  }

  /// The block holding `row` and the row inside it:
  /// `db_ref(table)[row / B - first]` (`first` null: 0; `count` given: the
  /// block index clamped to [0, count - 1]) and `row mod B`.
  static std::pair<Value, Value> selectRow(OpBuilder &b, Location loc, Value table,
                                           MemRefType blockType, Value row, const Layout &layout,
                                           Value first = Value(), Value count = Value()) {
    Value block, localRow;
    if (layout.edge)
      std::tie(block, localRow) = blockAndRow(b, loc, row, layout);
    else
      block = arith::DivUIOp::create(b, loc, row, layout.rowsPerBlock);
    if (first)
      block = arith::SubIOp::create(b, loc, block, first);
    if (count) {
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value last =
          arith::SubIOp::create(b, loc, count, arith::ConstantIndexOp::create(b, loc, 1));
      block = arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, block, zero), last);
    }
    if (!localRow)
      localRow = arith::RemUIOp::create(b, loc, row, layout.rowsPerBlock);
    return {DbRefOp::create(b, loc, blockType, table, ValueRange{block}), localRow};
  }

  /// The block holding `row` (non-negative) and the row inside it: `row / B` and `row mod B`
  /// for blocks of B rows; with edges of h rows in shares of S, the share s = row / S, the
  /// row r = row mod S in it, its part p = (r >= h) + (r >= S - h), the block 3s + p and the
  /// row r less the part's first row (0, h or S - h).
  static std::pair<Value, Value> blockAndRow(OpBuilder &b, Location loc, Value row,
                                             const Layout &layout, bool signedDivision = false) {
    auto divide = [&](Value x, Value y) -> Value {
      if (signedDivision)
        return arith::DivSIOp::create(b, loc, x, y);
      return arith::DivUIOp::create(b, loc, x, y);
    };
    if (!layout.edge)
      return {divide(row, layout.rowsPerBlock),
              arith::RemUIOp::create(b, loc, row, layout.rowsPerBlock)};
    auto constant = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
    Value share = divide(row, constant(layout.share));
    Value r = arith::RemUIOp::create(b, loc, row, constant(layout.share));
    Value pastHead = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, r,
                                           constant(layout.edge));
    // The last share may be shorter: its tail edge starts earlier.
    Value tailStart = constant(layout.share - layout.edge);
    if (layout.lastShare != layout.share)
      tailStart = arith::SelectOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, row,
                                constant(layout.lastShareRow)),
          constant(layout.lastShare - layout.edge), tailStart);
    Value inTail = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, r, tailStart);
    Value part = arith::AddIOp::create(
        b, loc, arith::SelectOp::create(b, loc, pastHead, constant(1), constant(0)),
        arith::SelectOp::create(b, loc, inTail, constant(1), constant(0)));
    Value block =
        arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, share, constant(3)), part);
    Value start = arith::SelectOp::create(
        b, loc, inTail, tailStart,
        arith::SelectOp::create(b, loc, pastHead, constant(layout.edge), constant(0)));
    return {block, arith::SubIOp::create(b, loc, r, start)};
  }

  /// `access` on `payload`, with `localRow` as its index in dimension `dim`, which comes
  /// first in the block when `leading`.
  static void replaceAccess(Operation *access, Value payload, Value localRow, unsigned dim,
                            bool leading) {
    OpBuilder b(access);
    Location loc = access->getLoc();
    SmallVector<Value> indices(accessIndices(access));
    indices[dim] = localRow;
    if (leading)
      std::rotate(indices.begin(), indices.begin() + dim, indices.begin() + dim + 1);
    if (auto load = dyn_cast<memref::LoadOp>(access)) {
      Value value = memref::LoadOp::create(b, loc, payload, indices);
      load.getResult().replaceAllUsesWith(value);
    } else {
      auto store = cast<memref::StoreOp>(access);
      memref::StoreOp::create(b, loc, store.getValueToStore(), payload, indices);
    }
    access->erase();
  }
};
} // namespace
