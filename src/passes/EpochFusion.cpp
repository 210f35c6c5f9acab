//===- EpochFusion.cpp - epochs ordered by their datablocks ---------------===//
//
// Description in Passes.td (EpochFusion). Safety argument: within one epoch the runtime
// serves each datablock's requests in registration order, and a request joins the
// generation being served only when nothing is queued ahead of it and both are READ or
// both CONCURRENT. So tasks registered later wait for every conflicting access registered
// earlier, except a CONCURRENT acquire right behind another loop's CONCURRENT acquire of
// the same datablock, which would join its generation; an acquire of another mode between
// them, registered on every path (no loop that may not run, no branch), prevents that.
// Tasks reach memory only through their acquires (arts-verify-edt-deps), and host code of
// a later epoch other than acquires, launches and pure arithmetic would run before the
// earlier tasks end, so it keeps epochs apart.
// Several nodes: a datablock's requests are queued at its owner, in the order they reach
// it. The two epochs' launches are made by one thread, and every dependence goes from the
// creating node to the owner (artsRecordDep, artsEdtCreateWithDbs) on the one ordered
// connection between them, so the owner queues them in the order they were registered.
// Host synchronisation (arts-host-sync, after this pass) sees the fused epoch as one: no
// host code with memory effects is left between the epochs it fused.
//
//===----------------------------------------------------------------------===//

#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <set>
#include <string>

namespace mlir::arts {
#define GEN_PASS_DEF_EPOCHFUSION
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
constexpr const char *kChannel = "epochs";

/// One acquire an epoch's host code registers, in program order. `group` is the loop that
/// launches the chunk tasks of one work-sharing loop (they may share a generation), else the
/// acquire itself; `copy` tells two iterations of an enclosing loop apart, and `guaranteed`
/// says the acquire runs whenever the epoch does (every loop around it inside the epoch has
/// constant, non-empty bounds).
struct AcquireRecord {
  Operation *db; ///< its db_alloc, or null when it cannot be told
  ArtsMode mode;
  Operation *group;
  int copy;
  bool guaranteed;
};

/// What an epoch's host code acquires; why it cannot be fused with any neighbour
/// (`refusal`), or only not behind an earlier one (`asLater`: host code that would no
/// longer wait for the earlier tasks).
struct EpochFacts {
  SmallVector<AcquireRecord> records;
  std::string refusal, asLater;
};

/// The db_alloc behind an acquire's table, or null when it cannot be told.
Operation *allocOf(DbAcquireOp acquire) {
  Operation *def = acquire.getSourceGuids().getDefiningOp();
  return isa_and_nonnull<DbAllocOp>(def) ? def : nullptr;
}

/// The loop launching the chunk tasks (`arts.team_workers`) this acquire feeds, directly
/// around it; else the acquire alone.
Operation *groupOf(DbAcquireOp acquire) {
  auto loop = dyn_cast<scf::ForOp>(acquire->getParentOp());
  if (loop)
    for (Operation *user : acquire->getUsers())
      if (isa<EdtOp>(user) && artsDialect(user)->getTeamWorkersAttrHelper().isAttrPresent(user))
        return loop;
  return acquire;
}

bool runsAtLeastOnce(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  return lb && ub && step && *step > 0 && *lb < *ub;
}

/// What of memory `task` may touch that no acquire of it orders: a global, an array
/// captured from outside (its function's argument), or what a function of the module it
/// calls touches. Empty if nothing.
std::string unorderedMemoryOf(EdtOp task) {
  if (!capturedMemrefs(task.getBody()).empty())
    return "an array that is not one of its datablocks";
  std::string what;
  task.getBody().walk([&](Operation *op) {
    if (isa<memref::GetGlobalOp, LLVM::AddressOfOp>(op)) {
      what = "a global";
      return WalkResult::interrupt();
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, call.getCalleeAttr());
      if (callee && !callee.isExternal()) {
        what = "what @" + callee.getSymName().str() + " touches";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return what;
}

EpochFacts factsOf(EpochOp epoch) {
  EpochFacts facts;
  if (!epoch->use_empty()) {
    facts.refusal = "its handle is used";
    return facts;
  }
  epoch.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto task = dyn_cast<EdtOp>(op)) {
      std::string unordered = unorderedMemoryOf(task);
      if (!unordered.empty()) {
        facts.refusal = "a task of it uses " + unordered + ", which no datablock orders";
        return WalkResult::interrupt();
      }
      return WalkResult::skip(); // the task's body runs inside the task
    }
    if (auto acquire = dyn_cast<DbAcquireOp>(op)) {
      AcquireRecord record{allocOf(acquire), acquire.getMode(), groupOf(acquire), 0, true};
      for (Operation *up = op->getParentOp(); up != epoch.getOperation(); up = up->getParentOp()) {
        auto loop = dyn_cast<scf::ForOp>(up);
        if (!loop || !runsAtLeastOnce(loop))
          record.guaranteed = false;
      }
      if (!record.db && record.mode == ArtsMode::concurrent) {
        facts.refusal = "an acquire's datablock is not a db_alloc of this function";
        return WalkResult::interrupt();
      }
      facts.records.push_back(record);
      return WalkResult::advance();
    }
    if (facts.asLater.empty() && !isa<YieldOp, scf::ForOp, scf::IfOp, scf::YieldOp>(op) &&
        !isMemoryEffectFree(op))
      facts.asLater = "its host code " + op->getName().getStringRef().str() +
                      " would run before the earlier tasks end";
    return WalkResult::advance();
  });
  return facts;
}

/// Why registering `records` in this order, in one epoch, could let a `concurrent`
/// acquire join the generation of another loop's (empty: it cannot). A request shares the
/// generation being served only when nothing is queued ahead of it, so two `concurrent`
/// acquires of one datablock from different loops are safe only with an acquire of another
/// mode of it, one that surely runs, registered between them.
std::string hazardOf(ArrayRef<AcquireRecord> records) {
  llvm::DenseMap<Operation *, const AcquireRecord *> lastConcurrent;
  llvm::DenseSet<Operation *> separated;
  for (const AcquireRecord &r : records) {
    if (!r.db)
      continue;
    if (r.mode != ArtsMode::concurrent) {
      if (r.guaranteed)
        separated.insert(r.db);
      continue;
    }
    auto it = lastConcurrent.find(r.db);
    if (it != lastConcurrent.end() && !separated.contains(r.db) &&
        (it->second->group != r.group || it->second->copy != r.copy))
      return "two loops write the datablock of " + locationString(r.db->getLoc()) +
             " concurrent with nothing ordering them";
    lastConcurrent[r.db] = &r;
    separated.erase(r.db);
  }
  return "";
}

/// Ops strictly between `a` and `b` (one block) that are pure and do not use `a`.
bool onlyPureBetween(Operation *a, Operation *b) {
  for (Operation *op = a->getNextNode(); op != b; op = op->getNextNode())
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return false;
  return true;
}

/// Moves `next`'s body to the end of `into`'s; the pure ops between them go before `into`.
void fuseInto(EpochOp into, EpochOp next) {
  for (Operation *op = into->getNextNode(); op != next.getOperation();) {
    Operation *following = op->getNextNode();
    op->moveBefore(into);
    op = following;
  }
  Block &dst = into.getBody().front();
  Block &src = next.getBody().front();
  Operation *dstYield = dst.getTerminator();
  src.getTerminator()->erase();
  dst.getOperations().splice(Block::iterator(dstYield), src.getOperations());
  next.erase();
}

/// Fuses the runs of adjacent epochs of every block; returns how many epochs went. A
/// refusal is printed once, though later rounds look at the same epochs again.
unsigned fuseAdjacent(ModuleOp module, std::set<std::string> &said) {
  SmallVector<SmallVector<EpochOp>> runs;
  module.walk([&](Block *block) {
    SmallVector<EpochOp> run;
    for (Operation &op : *block) {
      auto epoch = dyn_cast<EpochOp>(&op);
      if (!epoch)
        continue;
      if (!run.empty() && !onlyPureBetween(run.back(), epoch)) {
        if (run.size() > 1)
          runs.push_back(run);
        run.clear();
      }
      run.push_back(epoch);
    }
    if (run.size() > 1)
      runs.push_back(run);
  });
  unsigned fused = 0;
  for (auto &run : runs) {
    EpochOp into = run.front();
    EpochFacts acc = factsOf(into);
    for (EpochOp next : llvm::drop_begin(run)) {
      EpochFacts facts = factsOf(next);
      std::string why = !acc.refusal.empty()     ? "the earlier epoch: " + acc.refusal
                        : !facts.refusal.empty() ? facts.refusal
                                                 : facts.asLater;
      if (why.empty()) {
        SmallVector<AcquireRecord> both(acc.records);
        both.append(facts.records.begin(), facts.records.end());
        why = hazardOf(both);
      }
      if (!why.empty()) {
        std::string line = "epoch kept apart from the one at " +
                           locationString(into->getLoc()) + ": " + why;
        if (said.insert(locationString(next->getLoc()) + line).second)
          CARTS_DEBUG(kChannel, next) << line << "\n";
        into = next;
        acc = std::move(facts);
        continue;
      }
      CARTS_DEBUG(kChannel, next) << "epoch fused into the one at "
                                  << locationString(into->getLoc())
                                  << ": its datablocks order its tasks after the earlier ones\n";
      fuseInto(into, next);
      acc.records.append(facts.records.begin(), facts.records.end());
      ++fused;
    }
  }
  return fused;
}

/// A host loop whose body is one epoch and pure ops gets the epoch around it instead, when
/// the datablocks order each iteration's tasks after the previous one's. Returns how many.
unsigned hoistOutOfLoops(ModuleOp module, std::set<std::string> &said) {
  SmallVector<std::pair<scf::ForOp, EpochOp>> candidates;
  module.walk([&](scf::ForOp loop) {
    if (loop->getParentOfType<EdtOp>() || loop->getNumResults() != 0)
      return;
    EpochOp only;
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (auto epoch = dyn_cast<EpochOp>(&op)) {
        if (only)
          return;
        only = epoch;
      } else if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0) {
        return;
      }
    }
    if (only)
      candidates.push_back({loop, only});
  });
  unsigned hoisted = 0;
  for (auto [loop, epoch] : candidates) {
    EpochFacts facts = factsOf(epoch);
    std::string why = !facts.refusal.empty() ? facts.refusal : facts.asLater;
    if (why.empty()) {
      // Two iterations back to back: the second one's loops are other loops.
      SmallVector<AcquireRecord> twice(facts.records);
      for (AcquireRecord r : facts.records) {
        r.copy = 1;
        twice.push_back(r);
      }
      why = hazardOf(twice);
    }
    if (!why.empty()) {
      std::string line = "loop keeps an epoch per iteration: " + why;
      if (said.insert(locationString(loop->getLoc()) + line).second)
        CARTS_DEBUG(kChannel, loop) << line << "\n";
      continue;
    }
    CARTS_DEBUG(kChannel, loop) << "loop inside one epoch: its datablocks order each "
                                   "iteration's tasks after the previous one's\n";
    OpBuilder b(loop);
    auto outer = EpochOp::create(b, epoch.getLoc(), b.getI64Type());
    Block *body = b.createBlock(&outer.getBody());
    b.setInsertionPointToEnd(body);
    auto yield = YieldOp::create(b, epoch.getLoc());
    loop->moveBefore(yield);
    Block &inner = epoch.getBody().front();
    inner.getTerminator()->erase();
    loop.getBody()->getOperations().splice(Block::iterator(epoch), inner.getOperations());
    epoch.erase();
    ++hoisted;
  }
  return hoisted;
}

struct EpochFusion : arts::impl::EpochFusionBase<EpochFusion> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Fusing can make a loop's body one epoch, and hoisting can make epochs adjacent.
    unsigned fused = 0, hoisted = 0;
    std::set<std::string> said;
    for (;;) {
      unsigned f = fuseAdjacent(module, said), h = hoistOutOfLoops(module, said);
      fused += f;
      hoisted += h;
      if (f + h == 0)
        break;
    }
    CARTS_DEBUG(kChannel, module) << fused << " epochs fused, " << hoisted
                                  << " loops inside one epoch\n";
  }
};
} // namespace
