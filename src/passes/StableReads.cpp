//===- StableReads.cpp - reads of datablocks that no task writes ----------===//
//
// Described in Passes.td (`StableReads`). Why it is sound: tasks reach a
// datablock only through their acquires (arts-verify-edt-deps), and the host
// touches payloads only outside the epochs that run tasks on them (the host
// waits before it reads or writes, as after an OpenMP barrier). So when every
// acquire of an allocation is `in`, no two accesses a task makes to it can
// conflict, and its READ generations order nothing.
//
// The same holds within one epoch the host runs: every task of an earlier
// epoch has finished before it starts, and no task of a later one starts
// before all of its tasks have finished. So when every acquire of an
// allocation that writes lies in such an epoch, the reads in an epoch that
// holds none of those writers are stable too, and so are the CONCURRENT
// writes in an epoch where nothing else acquires it: CONCURRENT acquires
// share one generation, so its order has nothing to place there either.
// On one node, the same holds for the chunk tasks of one loop writing their
// own blocks (`out`/`inout`, block partition, launched once per chunk) in an
// epoch where no other acquire names the allocation: no two of them share a
// block, and nothing else in the epoch acquires one. An acquire not traced to
// its allocation might name it, so one anywhere turns this rule off.
//
//===----------------------------------------------------------------------===//

#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_STABLEREADS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
constexpr const char *kChannel = "stable-reads";

/// The acquires of one allocation, and the first that writes it.
struct AllocAcquires {
  SmallVector<DbAcquireOp> acquires;
  DbAcquireOp writer;
};

/// The epoch that orders `op` against the host's other epochs: the outermost `arts.epoch`
/// around it, when no task encloses that epoch and the function it is in is not called
/// from anywhere (so the host runs it, one epoch after the other). Null otherwise.
/// `uncalled` caches, per function, whether nothing calls it.
EpochOp hostEpochOf(Operation *op, llvm::DenseMap<Operation *, bool> &uncalled) {
  EpochOp outermost;
  for (Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp()) {
    if (isa<EdtOp>(parent))
      outermost = {};
    else if (auto epoch = dyn_cast<EpochOp>(parent))
      outermost = epoch;
    else if (auto func = dyn_cast<func::FuncOp>(parent)) {
      if (!outermost)
        return {};
      auto [it, inserted] = uncalled.try_emplace(func, false);
      if (inserted) {
        std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(func, func->getParentOfType<ModuleOp>());
        it->second = uses && uses->empty();
      }
      return it->second ? outermost : EpochOp();
    }
  }
  return {};
}

/// Whether `acquire` is a chunk task's write of its own blocks (`out`/`inout` of a block range
/// db-partitioning derived from the chunk, which it keeps exclusive only when chunk k is block
/// k), made once per chunk: between it and `epoch` there is no loop but the launch loop.
bool writesOwnBlocks(DbAcquireOp acquire, EpochOp epoch) {
  ArtsMode mode = acquire.getMode();
  if ((mode != ArtsMode::out && mode != ArtsMode::inout) || acquire.getFullRange() ||
      acquire.getOffsets().empty() || acquire.getPartition() != PartitionMode::block)
    return false;
  unsigned loops = 0;
  for (Operation *up = acquire->getParentOp(); up != epoch.getOperation(); up = up->getParentOp()) {
    if (isa<scf::ForOp>(up) && artsDialect(up)->getLaunchLoopAttrHelper().isAttrPresent(up) &&
        ++loops == 1)
      continue;
    if (!isa<scf::IfOp>(up))
      return false;
  }
  return true;
}

struct StableReads : arts::impl::StableReadsBase<StableReads> {
  void runOnOperation() override {
    llvm::MapVector<Operation *, AllocAcquires> byAlloc;
    DbAcquireOp untracedWriter, untraced;
    getOperation()->walk([&](DbAcquireOp acquire) {
      DbAllocOp alloc = traceAllocation(acquire.getSourcePtrs());
      bool writes = acquire.getMode() != ArtsMode::in;
      if (!alloc) {
        if (writes && !untracedWriter)
          untracedWriter = acquire;
        if (!untraced)
          untraced = acquire;
        return;
      }
      AllocAcquires &entry = byAlloc[alloc];
      entry.acquires.push_back(acquire);
      if (writes && !entry.writer)
        entry.writer = acquire;
    });
    if (untracedWriter) {
      CARTS_DEBUG(kChannel, untracedWriter)
          << "this acquire writes a datablock not traced to its allocation: no read is "
             "marked stable\n";
      return;
    }
    // A read not traced to its allocation might be of any of them: no write is then known
    // to be the only acquire of its blocks in its epoch.
    if (untraced)
      CARTS_DEBUG(kChannel, untraced)
          << "this acquire reads a datablock not traced to its allocation: no write of a "
             "chunk's own blocks is marked stable\n";
    llvm::DenseMap<Operation *, bool> uncalled;
    for (auto &[op, entry] : byAlloc) {
      auto alloc = cast<DbAllocOp>(op);
      if (entry.writer) {
        markBetweenWriters(alloc, entry, uncalled, /*ownBlocksKnown=*/!untraced);
        continue;
      }
      for (DbAcquireOp acquire : entry.acquires)
        acquire.setStable(true);
      CARTS_DEBUG(kChannel, alloc) << "stable: no task writes it; " << entry.acquires.size()
                                   << " <in> acquire(s) marked\n";
    }
  }

  /// An allocation that tasks write: its reads in host epochs without a writer, and its
  /// CONCURRENT writes in host epochs where every acquire of it is one.
  void markBetweenWriters(DbAllocOp alloc, AllocAcquires &entry,
                          llvm::DenseMap<Operation *, bool> &uncalled, bool ownBlocksKnown) {
    struct EpochUse {
      bool writes = false;
      bool onlyConcurrent = true;
      unsigned acquireOps = 0;
    };
    llvm::DenseMap<Operation *, EpochUse> uses;
    SmallVector<std::pair<DbAcquireOp, Operation *>> inEpochs;
    for (DbAcquireOp acquire : entry.acquires) {
      ArtsMode mode = acquire.getMode();
      EpochOp epoch = hostEpochOf(acquire, uncalled);
      if (!epoch && mode != ArtsMode::in) {
        CARTS_DEBUG(kChannel, alloc)
            << "not stable: a task acquires it <" << stringifyArtsMode(mode) << "> at "
            << locationString(acquire.getLoc()) << ", outside an epoch the host runs in turn\n";
        return;
      }
      if (!epoch)
        continue;
      EpochUse &use = uses[epoch];
      use.writes |= mode != ArtsMode::in;
      use.onlyConcurrent &= mode == ArtsMode::concurrent;
      ++use.acquireOps;
      inEpochs.push_back({acquire, epoch});
    }
    bool markOwnBlocks = ownBlocksKnown && moduleNodes(alloc->getParentOfType<ModuleOp>()) <= 1;
    unsigned reads = 0, writes = 0, ownBlocks = 0;
    for (auto [acquire, epoch] : inEpochs) {
      const EpochUse &use = uses[epoch];
      if (acquire.getMode() == ArtsMode::in && !use.writes)
        ++reads;
      else if (use.onlyConcurrent)
        ++writes;
      else if (markOwnBlocks && use.acquireOps == 1 &&
               writesOwnBlocks(acquire, cast<EpochOp>(epoch)))
        ++ownBlocks;
      else
        continue;
      acquire.setStable(true);
    }
    std::string what;
    auto add = [&](unsigned n, const char *text) {
      if (n)
        what += (what.empty() ? "" : ", ") + std::to_string(n) + text;
    };
    add(reads, " <in> acquire(s) in epochs where no task writes it");
    add(writes, " <concurrent> acquire(s) in epochs where every acquire of it is one");
    add(ownBlocks, " acquire(s) of a chunk's own blocks in epochs where nothing else acquires it");
    CARTS_DEBUG(kChannel, alloc)
        << (what.empty() ? "not stable: it is written in every epoch that acquires it"
                         : "stable between writers: " + what)
        << " (first writer <" << stringifyArtsMode(entry.writer.getMode()) << "> at "
        << locationString(entry.writer.getLoc()) << ")\n";
  }
};
} // namespace
