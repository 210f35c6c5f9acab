//===- HostSync.cpp - host coherence of datablocks on several nodes -------===//
//
// Described in Passes.td (`HostSync`); below, how it does it.
//
// With several nodes, host code (mainBody outside tasks, on node 0) and the
// tasks of other nodes may hold different copies of a datablock. This pass
// puts `arts.db_sync` where they must agree, walking host code in program
// order with three facts per datablock table:
//
//   dirty   the host may have written it since the last flush (for a table
//           on node 0: since tasks first acquired it; before that no other
//           node holds a copy that could be out of date);
//   stale   tasks may have written an owner's copy since the last fetch
//           (`distributed` tables only);
//   shared  tasks may have acquired it since its allocation (tables on
//           node 0 only);
//   unsent  the host wrote it and no task has acquired it since its
//           allocation (tables on node 0 only): no other node has a copy.
//
// A `distributed` table's blocks live on their owners and the host sees the
// blocks of other nodes through shadow buffers: a flush puts the shadows to
// the owners, a fetch gets the owners' payloads into them. Every other table
// lives on node 0 and the host writes the owner's payload itself, so only the
// flush matters: nodes that read the table may cache a copy, which the
// runtime refreshes when the block's version changes, and a host write is
// not a new version until a put of the block onto itself says so. Tasks'
// write-backs reach node 0 before their epoch ends, so such a table is never
// stale.
//
//   host access (an op with no epoch inside that uses a payload of the
//   table: the whole op counts, so a loop nest syncs once, before it)
//       -> fetch before it if stale; then dirty if it may write (and, for a
//          table on node 0, tasks have acquired it);
//   epoch (or a task outside epochs)
//       -> flush before it for each table its tasks acquire if dirty;
//          share a table on node 0 that tasks spread over the nodes read
//          whole, and none writes, if it is unsent or was just flushed: its
//          copies go out with the host's flushes, before whatever host code
//          follows (a kernel timer), instead of with the first task's grant;
//          then stale for the distributed ones they acquire
//          out/inout/concurrent, shared for the others.
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

#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_HOSTSYNC
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

static constexpr llvm::StringLiteral kChannel = "host-sync";

namespace {

struct SyncState {
  /// `shared`: tasks may have acquired a table on node 0 since its
  /// allocation, so another node may hold a copy of it.
  llvm::BitVector dirty, stale, shared, unsent;
  explicit SyncState(unsigned n) : dirty(n), stale(n), shared(n), unsent(n) {}
  void join(const SyncState &other) {
    dirty |= other.dirty;
    stale |= other.stale;
    shared |= other.shared;
    unsent |= other.unsent;
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

  /// Indexes the allocations and their host accesses.
  void collect(ModuleOp module);
  bool empty() const { return allocs.empty(); }
  unsigned size() const { return allocs.size(); }
  unsigned distributedCount() const { return distributed.count(); }
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
  /// Datablocks that tasks inside `op` spread over the nodes read whole.
  llvm::SmallDenseSet<unsigned> spreadWholeReads(Operation *op);
  /// Where a flush or share of `db` for the epoch `op` goes: right after the host's last
  /// write when it is in the epoch's block, else before the epoch.
  std::pair<Operation *, std::string> syncPoint(unsigned db, Operation *op);
  std::optional<unsigned> traceToAlloc(Value ptrs);

  SmallVector<DbAllocOp> allocs;
  /// Per allocation: the host access that last made it dirty or unsent, where the flush or
  /// share it needs can go (right after it, before whatever host code follows, such as a
  /// kernel timer).
  DenseMap<unsigned, Operation *> lastDirtying;
  /// Per allocation: `distributed` (blocks on their owners, shadows on the host).
  llvm::BitVector distributed;
  DenseMap<Operation *, unsigned> allocIndex;
  DenseMap<Operation *, SmallVector<std::pair<unsigned, bool>, 1>> accesses;
  DominanceInfo dominance;
};

void HostSyncWalker::collect(ModuleOp module) {
  module.walk([&](DbAllocOp alloc) {
    allocIndex[alloc] = allocs.size();
    allocs.push_back(alloc);
    distributed.push_back(alloc.getDistributed());
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
    debugLine(kChannel, alloc) << (distributed.test(db) ? "distributed datablock"
                                                        : "datablock on node 0")
                               << ": host code reads it at " << reads[db]
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
  auto it = allocIndex.find(traceAllocation(ptrs).getOperation());
  return it == allocIndex.end() ? std::nullopt : std::optional(it->second);
}

/// Every acquire of the tasks inside `op`: those inside it, and those made before it for a
/// task inside it (a task created by host code, as a taskloop's is), which count where the
/// task that takes them runs.
static void forEachTaskAcquire(Operation *op, function_ref<void(DbAcquireOp)> fn) {
  op->walk(fn);
  op->walk([&](EdtOp task) {
    for (Value operand : task->getOperands())
      if (auto acquire = operand.getDefiningOp<DbAcquireOp>(); acquire && !op->isAncestor(acquire))
        fn(acquire);
  });
}

DbUses HostSyncWalker::taskAcquires(Operation *op) {
  DbUses uses;
  forEachTaskAcquire(op, [&](DbAcquireOp acquire) {
    if (std::optional<unsigned> db = traceToAlloc(acquire.getSourcePtrs()))
      uses[*db] |= acquire.getMode() != ArtsMode::in;
  });
  return uses;
}

llvm::SmallDenseSet<unsigned> HostSyncWalker::spreadWholeReads(Operation *op) {
  llvm::SmallDenseSet<unsigned> reads;
  forEachTaskAcquire(op, [&](DbAcquireOp acquire) {
    if (acquire.getMode() != ArtsMode::in || !acquire.getIndices().empty() ||
        !acquire.getOffsets().empty())
      return;
    bool spread = llvm::any_of(acquire.getPtrs().getUsers(), [](Operation *user) {
      auto task = dyn_cast<EdtOp>(user);
      return task && task.getConcurrency() == EdtConcurrency::internode;
    });
    if (std::optional<unsigned> db = traceToAlloc(acquire.getSourcePtrs()); db && spread)
      reads.insert(*db);
  });
  return reads;
}

std::pair<Operation *, std::string> HostSyncWalker::syncPoint(unsigned db, Operation *op) {
  Operation *last = lastDirtying.lookup(db);
  if (last && last->getBlock() == op->getBlock() && last->isBeforeInBlock(op) &&
      last->getNextNode() != op)
    return {last->getNextNode(),
            "after the host's last write, ahead of the epoch at " + locationString(op->getLoc())};
  return {op, "before epoch"};
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
                                << locationString(alloc.getLoc()) << " " << why
                                << (kind != SyncKind::flush || distributed.test(db)
                                        ? ""
                                        : " (host writes reach the owner's copy: new version)")
                                << "\n";
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
      state.shared.reset(it->second);
      state.unsent.reset(it->second);
    }
    return;
  }
  if (auto existing = dyn_cast<DbSyncOp>(op)) {
    if (auto it = allocIndex.find(existing.getGuids().getDefiningOp());
        it != allocIndex.end()) {
      if (existing.getKind() == SyncKind::flush)
        state.dirty.reset(it->second);
      else if (existing.getKind() == SyncKind::fetch)
        state.stale.reset(it->second);
      else
        state.unsent.reset(it->second);
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
    if (writes && (distributed.test(db) || state.shared.test(db))) {
      state.dirty.set(db);
      lastDirtying[db] = op;
    } else if (writes) {
      state.unsent.set(db);
      lastDirtying[db] = op;
    }
  }
}

void HostSyncWalker::visitEpoch(Operation *op, SyncState &state, Mode mode) {
  // Host code inside the epoch but outside its tasks counts as before it.
  visitAccess(op, state, mode);
  DbUses acquired = taskAcquires(op);
  std::optional<llvm::SmallDenseSet<unsigned>> spreadReads; // walked once, if asked
  for (auto [db, writes] : acquired) {
    bool flushed = state.dirty.test(db);
    bool shared = (flushed || state.unsent.test(db)) && !writes && !distributed.test(db);
    if (shared && !spreadReads)
      spreadReads = spreadWholeReads(op);
    shared = shared && spreadReads->contains(db);
    state.dirty.reset(db);
    state.unsent.reset(db);
    if (!flushed && !shared)
      continue;
    // As early as the program order allows: right after the host's last write when it is
    // in the epoch's block (nothing in between touches the table), else before the epoch.
    auto [before, why] = syncPoint(db, op);
    if (flushed)
      sync(before, db, SyncKind::flush, mode, why);
    if (shared)
      sync(before, db, SyncKind::share, mode, why);
  }
  // A table on node 0 gets its tasks' writes back before the epoch ends, but
  // other nodes may keep copies of it from now on.
  for (auto [db, writes] : acquired) {
    if (!distributed.test(db))
      state.shared.set(db);
    else if (writes)
      state.stale.set(db);
  }
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
      others.shared.reset(db);
      others.unsent.reset(db);
    }
  SyncState cleared(allocs.size());
  SyncState backEdge = bodyEntry(op, cleared);
  SyncState entryOnly = others;
  entryOnly.dirty.reset(backEdge.dirty);
  entryOnly.stale.reset(backEdge.stale);
  entryOnly.unsent.reset(backEdge.unsent);
  entryOnly.shared.reset(); // not a sync of its own: both walks below start with it
  if (entryOnly.dirty.any() || entryOnly.stale.any() || entryOnly.unsent.any()) {
    SyncState without = backEdge;
    without.shared |= others.shared;
    SyncState with = without;
    with.join(entryOnly);
    auto base = countSyncs(op, without);
    auto more = countSyncs(op, with);
    for (unsigned db = 0; db < allocs.size(); ++db) {
      auto extra = [&](SyncKind kind) {
        std::pair<unsigned, unsigned> key{db, static_cast<unsigned>(kind)};
        return more.lookup(key) > base.lookup(key);
      };
      bool flushed = entryOnly.dirty.test(db) && extra(SyncKind::flush);
      if (flushed) {
        sync(op, db, SyncKind::flush, mode, "before loop (its first epoch acquiring it)");
        state.dirty.reset(db);
      }
      if (entryOnly.stale.test(db) && extra(SyncKind::fetch)) {
        sync(op, db, SyncKind::fetch, mode, "before loop (its first host access)");
        state.stale.reset(db);
      }
      if ((flushed || entryOnly.unsent.test(db)) && extra(SyncKind::share)) {
        sync(op, db, SyncKind::share, mode, "before loop (its first epoch reading it)");
        state.unsent.reset(db);
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
    if (moduleNodes(module) <= 1) {
      CARTS_DEBUG(kChannel, module) << "one node: no host sync\n";
      return;
    }
    HostSyncWalker walker(module);
    walker.collect(module);
    if (walker.empty()) {
      CARTS_DEBUG(kChannel, module) << "no datablock: no host sync\n";
      return;
    }
    for (auto fn : module.getOps<FunctionOpInterface>()) {
      if (fn.isExternal())
        continue;
      SyncState state(walker.size());
      walker.walkRegion(fn.getFunctionBody(), state, Mode::insert);
    }
    CARTS_DEBUG(kChannel, module) << walker.size() << " datablocks ("
                                  << walker.distributedCount() << " distributed), "
                                  << walker.inserted << " syncs inserted\n";
  }
};
} // namespace
