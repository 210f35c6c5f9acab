//===- EpochFusion.cpp - adjacent epochs ordered by their datablocks ------===//
//
// Description in Passes.td (EpochFusion). Safety argument: within one epoch the runtime
// serves each datablock's requests in registration order, and a request joins the
// generation being served only when nothing is queued ahead of it and both are READ or
// both CONCURRENT. So the tasks of a later epoch, registered after every task of the
// earlier one, wait for every conflicting access of the earlier one, except where both
// epochs acquire one datablock CONCURRENT (the later writers would join the earlier
// generation): such epochs stay apart. Tasks reach memory only through their acquires
// (arts-verify-edt-deps), and host code of the later epoch other than acquires, launches
// and pure arithmetic would run before the earlier tasks end, so it also keeps them apart.
//
//===----------------------------------------------------------------------===//

#include "passes/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::arts {
#define GEN_PASS_DEF_EPOCHFUSION
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
constexpr const char *kChannel = "epochs";

/// What one epoch's launches acquire: the datablocks (their db_alloc) acquired
/// `concurrent`; why it cannot be fused with any neighbour (`refusal`), or only not into
/// an earlier one (`asLater`: host code that would no longer wait for the earlier tasks).
struct EpochFacts {
  llvm::DenseSet<Operation *> concurrent;
  std::string refusal, asLater;
};

/// The db_alloc behind an acquire's table, or null when it cannot be told.
Operation *allocOf(DbAcquireOp acquire) {
  Operation *def = acquire.getSourceGuids().getDefiningOp();
  return isa_and_nonnull<DbAllocOp>(def) ? def : nullptr;
}

EpochFacts factsOf(EpochOp epoch) {
  EpochFacts facts;
  if (!epoch->use_empty()) {
    facts.refusal = "its handle is used";
    return facts;
  }
  epoch.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<EdtOp>(op))
      return WalkResult::skip(); // the task's body runs inside the task
    if (auto acquire = dyn_cast<DbAcquireOp>(op)) {
      if (acquire.getMode() == ArtsMode::concurrent) {
        Operation *alloc = allocOf(acquire);
        if (!alloc) {
          facts.refusal = "an acquire's datablock is not a db_alloc of this function";
          return WalkResult::interrupt();
        }
        facts.concurrent.insert(alloc);
      }
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

/// Ops strictly between `a` and `b` (one block) that are pure and do not use `a`.
bool onlyPureBetween(EpochOp a, EpochOp b) {
  for (Operation *op = a->getNextNode(); op != b; op = op->getNextNode())
    if (!isMemoryEffectFree(op) || op->getNumRegions() != 0)
      return false;
  return true;
}

struct EpochFusion : arts::impl::EpochFusionBase<EpochFusion> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t nodes = 1;
    if (auto attr = module->getAttrOfType<IntegerAttr>("arts.nodes"))
      nodes = attr.getInt();
    if (nodes > 1) {
      CARTS_DEBUG(kChannel, module) << "several nodes: epochs not fused (host sync works "
                                       "epoch by epoch)\n";
      return;
    }
    // Runs of epochs adjacent in one block, in program order.
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
        if (why.empty())
          for (Operation *alloc : facts.concurrent)
            if (acc.concurrent.contains(alloc)) {
              why = "both write the datablock of " + locationString(alloc->getLoc()) +
                    " concurrent";
              break;
            }
        if (!why.empty()) {
          CARTS_DEBUG(kChannel, next) << "epoch kept apart from the one at "
                                      << locationString(into->getLoc()) << ": " << why << "\n";
          into = next;
          acc = std::move(facts);
          continue;
        }
        CARTS_DEBUG(kChannel, next) << "epoch fused into the one at "
                                    << locationString(into->getLoc())
                                    << ": its datablocks order its tasks after the earlier ones\n";
        // The pure ops in between go first, then next's body joins the end of into's.
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
        acc.concurrent.insert(facts.concurrent.begin(), facts.concurrent.end());
        ++fused;
      }
    }
    CARTS_DEBUG(kChannel, module) << fused << " epochs fused\n";
  }
};
} // namespace
