//===- HostSync.cpp - host coherence of distributed datablocks ------------===//
//
// With several nodes, a `distributed` datablock's blocks live on their owners;
// host code (mainBody outside tasks, on node 0) sees the blocks of other nodes
// through shadow buffers. This pass puts `arts.db_sync` where the two copies
// must agree, walking host code in program order with two facts per
// datablock:
//
//   dirty  the host may have written a shadow since the last flush;
//   stale  tasks may have written an owner's copy since the last fetch.
//
//   host access (an op with no epoch inside that uses a payload of the
//   table: the whole op counts, so a loop nest syncs once, before it)
//       -> fetch before it if stale; then dirty if it may write;
//   epoch (or a task outside epochs)
//       -> flush before it for each datablock its tasks acquire if dirty;
//          then stale for those they acquire out/inout/concurrent.
//
// A loop with epochs inside is walked twice: the first walk only computes the
// state at the end of the body, which joins the entry state for the walk that
// inserts (each fact is gen/kill, so this covers the back edge). A fact that
// holds at the loop's entry but never at the end of its body would make the
// body sync on every iteration for the sake of the first one; such syncs go
// before the loop instead. The branches of an scf.if start from one state and
// join. Existing syncs count, so a second run adds none.
//
//===----------------------------------------------------------------------===//

#include "passes/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_HOSTSYNC
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

static constexpr llvm::StringLiteral kChannel = "host_sync";

namespace {

struct SyncState {
  llvm::BitVector dirty, stale;
  explicit SyncState(unsigned n) : dirty(n), stale(n) {}
  void join(const SyncState &other) {
    dirty |= other.dirty;
    stale |= other.stale;
  }
};

/// Datablock index -> whether the uses may write, in first-use order.
using DbUses = llvm::MapVector<unsigned, bool>;

/// `analyse` only computes states; `count` also counts the syncs it would
/// insert (to compare two entry states); `insert` inserts them.
enum class Mode { analyse, count, insert };

bool launchesTasks(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isa<EpochOp, EdtOp>(inner) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

class HostSyncWalker {
public:
  HostSyncWalker(ModuleOp module) : dominance(module) {}

  /// Indexes the distributed allocations and their host accesses.
  void collect(ModuleOp module);
  bool empty() const { return allocs.empty(); }
  unsigned size() const { return allocs.size(); }
  void walkRegion(Region &region, SyncState &state, Mode mode);
  unsigned inserted = 0;
  /// Syncs a `count` walk would insert, per datablock and kind.
  DenseMap<std::pair<unsigned, unsigned>, unsigned> counted;

private:
  void visit(Operation *op, SyncState &state, Mode mode);
  void visitAccess(Operation *op, SyncState &state, Mode mode);
  void visitEpoch(Operation *op, SyncState &state, Mode mode);
  void visitLoop(Operation *op, SyncState &state, Mode mode);
  void visitIf(scf::IfOp op, SyncState &state, Mode mode);
  SyncState bodyEntry(Operation *op, const SyncState &entry);
  DenseMap<std::pair<unsigned, unsigned>, unsigned> countSyncs(Operation *op,
                                                              const SyncState &start);
  void sync(Operation *before, unsigned db, SyncKind kind, Mode mode, StringRef why);
  void addAccesses(Value payload, unsigned db);
  /// Host accesses inside `op` (itself included), not counting tasks' code.
  DbUses hostAccesses(Operation *op);
  /// Datablocks acquired by the tasks inside `op`.
  DbUses taskAcquires(Operation *op);
  std::optional<unsigned> traceToAlloc(Value ptrs);

  SmallVector<DbAllocOp> allocs;
  DenseMap<Operation *, unsigned> allocIndex;
  DenseMap<Operation *, SmallVector<std::pair<unsigned, bool>, 1>> accesses;
  DominanceInfo dominance;
};

void HostSyncWalker::collect(ModuleOp module) {
  module.walk([&](DbAllocOp alloc) {
    if (!alloc.getDistributed())
      return;
    allocIndex[alloc] = allocs.size();
    allocs.push_back(alloc);
  });
  for (auto [db, alloc] : llvm::enumerate(allocs))
    for (Operation *user : alloc.getPtrs().getUsers())
      if (auto ref = dyn_cast<DbRefOp>(user); ref && !ref->getParentOfType<EdtOp>())
        addAccesses(ref.getPayload(), db);
  if (!isDebugChannelOn(kChannel))
    return;
  SmallVector<unsigned> reads(allocs.size()), writes(allocs.size());
  for (auto &[op, uses] : accesses)
    for (auto [db, write] : uses)
      ++(write ? writes : reads)[db];
  for (auto [db, alloc] : llvm::enumerate(allocs))
    debugLine(kChannel, alloc) << "distributed datablock: host code reads it at " << reads[db]
                               << " and may write it at " << writes[db] << " places\n";
}

/// Every use of a host payload is an access (through views too); only loads
/// and dims are known not to write.
void HostSyncWalker::addAccesses(Value payload, unsigned db) {
  for (Operation *user : payload.getUsers()) {
    if (auto view = dyn_cast<ViewLikeOpInterface>(user); view && view.getViewSource() == payload) {
      for (Value result : user->getResults())
        addAccesses(result, db);
      continue;
    }
    accesses[user].push_back({db, !isa<memref::LoadOp, memref::DimOp>(user)});
  }
}

DbUses HostSyncWalker::hostAccesses(Operation *op) {
  DbUses uses;
  op->walk<WalkOrder::PreOrder>([&](Operation *inner) {
    if (isa<EdtOp>(inner))
      return WalkResult::skip();
    auto it = accesses.find(inner);
    if (it != accesses.end())
      for (auto [db, writes] : it->second)
        uses[db] |= writes;
    return WalkResult::advance();
  });
  return uses;
}

std::optional<unsigned> HostSyncWalker::traceToAlloc(Value ptrs) {
  while (ptrs) {
    if (auto alloc = ptrs.getDefiningOp<DbAllocOp>()) {
      auto it = allocIndex.find(alloc);
      return it == allocIndex.end() ? std::nullopt : std::optional(it->second);
    }
    if (auto acquire = ptrs.getDefiningOp<DbAcquireOp>()) {
      ptrs = acquire.getSourcePtrs();
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(ptrs);
    auto task = arg ? dyn_cast<EdtOp>(arg.getOwner()->getParentOp()) : EdtOp();
    if (!task || arg.getArgNumber() >= task.getDeps().size())
      return std::nullopt;
    ptrs = task.getDeps()[arg.getArgNumber()];
  }
  return std::nullopt;
}

DbUses HostSyncWalker::taskAcquires(Operation *op) {
  DbUses uses;
  op->walk([&](DbAcquireOp acquire) {
    if (std::optional<unsigned> db = traceToAlloc(acquire.getSourcePtrs()))
      uses[*db] |= acquire.getMode() != ArtsMode::in;
  });
  return uses;
}

void HostSyncWalker::sync(Operation *before, unsigned db, SyncKind kind, Mode mode,
                          StringRef why) {
  if (mode == Mode::count)
    ++counted[{db, static_cast<unsigned>(kind)}];
  if (mode != Mode::insert)
    return;
  DbAllocOp alloc = allocs[db];
  if (!dominance.properlyDominates(alloc.getOperation(), before)) {
    CARTS_DEBUG(kChannel, before) << stringifySyncKind(kind) << " "
                                  << locationString(alloc.getLoc()) << " " << why
                                  << " skipped: the allocation does not dominate it\n";
    return;
  }
  OpBuilder b(before);
  DbSyncOp::create(b, before->getLoc(), kind, alloc.getGuids(), alloc.getPtrs());
  ++inserted;
  CARTS_DEBUG(kChannel, before) << stringifySyncKind(kind) << " "
                                << locationString(alloc.getLoc()) << " " << why << "\n";
}

void HostSyncWalker::walkRegion(Region &region, SyncState &state, Mode mode) {
  for (Block &block : region)
    for (Operation &op : llvm::make_early_inc_range(block))
      visit(&op, state, mode);
}

void HostSyncWalker::visit(Operation *op, SyncState &state, Mode mode) {
  if (auto alloc = dyn_cast<DbAllocOp>(op)) {
    if (auto it = allocIndex.find(alloc); it != allocIndex.end()) {
      state.dirty.reset(it->second); // fresh blocks and shadows are all zero
      state.stale.reset(it->second);
    }
    return;
  }
  if (auto existing = dyn_cast<DbSyncOp>(op)) {
    if (auto it = allocIndex.find(existing.getGuids().getDefiningOp());
        it != allocIndex.end()) {
      if (existing.getKind() == SyncKind::flush)
        state.dirty.reset(it->second);
      else
        state.stale.reset(it->second);
    }
    return;
  }
  if (isa<EpochOp, EdtOp>(op))
    return visitEpoch(op, state, mode);
  if (!launchesTasks(op))
    return visitAccess(op, state, mode);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return visitIf(branch, state, mode);
  if (isa<memref::AllocaScopeOp, scf::ExecuteRegionOp>(op)) {
    for (Region &region : op->getRegions())
      walkRegion(region, state, mode);
    return;
  }
  // scf.for, scf.while, and any other op whose regions may run repeatedly.
  visitLoop(op, state, mode);
}

void HostSyncWalker::visitAccess(Operation *op, SyncState &state, Mode mode) {
  for (auto [db, writes] : hostAccesses(op)) {
    if (op->isAncestor(allocs[db]))
      continue; // made inside: fresh at its allocation
    if (state.stale.test(db)) {
      sync(op, db, SyncKind::fetch, mode, "before host access");
      state.stale.reset(db);
    }
    if (writes)
      state.dirty.set(db);
  }
}

void HostSyncWalker::visitEpoch(Operation *op, SyncState &state, Mode mode) {
  // Host code inside the epoch but outside its tasks counts as before it.
  visitAccess(op, state, mode);
  DbUses acquired = taskAcquires(op);
  for (auto [db, writes] : acquired)
    if (state.dirty.test(db)) {
      sync(op, db, SyncKind::flush, mode, "before epoch");
      state.dirty.reset(db);
    }
  for (auto [db, writes] : acquired)
    if (writes)
      state.stale.set(db);
}

/// The state at the start of `op`'s body once the back edge is joined in,
/// for the state `entry` before the loop.
SyncState HostSyncWalker::bodyEntry(Operation *op, const SyncState &entry) {
  SyncState end = entry;
  for (Region &region : op->getRegions())
    walkRegion(region, end, Mode::analyse);
  SyncState joined = entry;
  joined.join(end);
  return joined;
}

/// Syncs per datablock and kind that one walk of `op`'s body from `start` makes.
DenseMap<std::pair<unsigned, unsigned>, unsigned>
HostSyncWalker::countSyncs(Operation *op, const SyncState &start) {
  auto saved = std::move(counted);
  counted.clear();
  SyncState state = start;
  for (Region &region : op->getRegions())
    walkRegion(region, state, Mode::count);
  auto result = std::move(counted);
  counted = std::move(saved);
  return result;
}

void HostSyncWalker::visitLoop(Operation *op, SyncState &state, Mode mode) {
  // Facts of the entry that the body never leaves at its end: with them the
  // body would sync on every iteration for the first one's sake; sync before
  // the loop instead. Each fact evolves on its own, so all are tried at once.
  SyncState others = state;
  for (unsigned db = 0; db < allocs.size(); ++db)
    if (op->isAncestor(allocs[db])) {
      others.dirty.reset(db); // made inside the loop: fresh each time
      others.stale.reset(db);
    }
  SyncState cleared(allocs.size());
  SyncState backEdge = bodyEntry(op, cleared);
  SyncState entryOnly = others;
  entryOnly.dirty.reset(backEdge.dirty);
  entryOnly.stale.reset(backEdge.stale);
  if (entryOnly.dirty.any() || entryOnly.stale.any()) {
    SyncState without = backEdge;
    SyncState with = backEdge;
    with.join(entryOnly);
    auto base = countSyncs(op, without);
    auto more = countSyncs(op, with);
    for (unsigned db = 0; db < allocs.size(); ++db) {
      auto extra = [&](SyncKind kind) {
        std::pair<unsigned, unsigned> key{db, static_cast<unsigned>(kind)};
        return more.lookup(key) > base.lookup(key);
      };
      if (entryOnly.dirty.test(db) && extra(SyncKind::flush)) {
        sync(op, db, SyncKind::flush, mode, "before loop (its first epoch acquiring it)");
        state.dirty.reset(db);
      }
      if (entryOnly.stale.test(db) && extra(SyncKind::fetch)) {
        sync(op, db, SyncKind::fetch, mode, "before loop (its first host access)");
        state.stale.reset(db);
      }
    }
  }
  SyncState body = bodyEntry(op, state);
  SyncState end = body;
  for (Region &region : op->getRegions())
    walkRegion(region, end, mode);
  state = body;
  state.join(end);
}

void HostSyncWalker::visitIf(scf::IfOp op, SyncState &state, Mode mode) {
  SyncState thenState = state, elseState = state;
  walkRegion(op.getThenRegion(), thenState, mode);
  walkRegion(op.getElseRegion(), elseState, mode);
  thenState.join(elseState);
  state = thenState;
}

struct HostSync : arts::impl::HostSyncBase<HostSync> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t nodes = 1;
    if (auto attr = module->getAttrOfType<IntegerAttr>("arts.nodes"))
      nodes = attr.getInt();
    if (nodes <= 1) {
      CARTS_DEBUG(kChannel, module) << "one node: no host sync\n";
      return;
    }
    HostSyncWalker walker(module);
    walker.collect(module);
    if (walker.empty()) {
      CARTS_DEBUG(kChannel, module) << "no distributed datablock: no host sync\n";
      return;
    }
    for (auto fn : module.getOps<FunctionOpInterface>()) {
      if (fn.isExternal())
        continue;
      SyncState state(walker.size());
      walker.walkRegion(fn.getFunctionBody(), state, Mode::insert);
    }
    CARTS_DEBUG(kChannel, module) << walker.size() << " distributed datablocks, "
                                  << walker.inserted << " syncs inserted\n";
  }
};
} // namespace
