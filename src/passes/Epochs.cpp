//===- Epochs.cpp - barriers become epochs --------------------------------===//
//
// Described in Passes.td (`Epochs`).
//
//===----------------------------------------------------------------------===//

#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::arts {
#define GEN_PASS_DEF_EPOCHS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {

/// Whether `op` launches a task that no epoch inside `op` already waits for (a loop whose
/// tasks are all in epochs of its own is synchronised by them).
bool launchesTasks(Operation *op) {
  bool found = false;
  op->walk([&](EdtOp edt) {
    for (Operation *p = edt->getParentOp(); p && p != op->getParentOp(); p = p->getParentOp())
      if (isa<EpochOp>(p))
        return WalkResult::advance();
    found = true;
    return WalkResult::interrupt();
  });
  return found;
}

/// Whether a result of `op` is used after `last` (in `last`'s block, or nested in an op
/// after it).
bool usedAfter(Operation *op, Operation *last) {
  Block *block = last->getBlock();
  for (Value result : op->getResults())
    for (Operation *user : result.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (ancestor && last->isBeforeInBlock(ancestor))
        return true;
    }
  return false;
}

/// Moves [first, last] (ops of one block) into a new epoch placed at `first`.
LogicalResult wrapInEpoch(Operation *first, Operation *last, Operation *reportAt) {
  // Host arithmetic in the range whose value is used after it (a global's address, a
  // constant computed between two loops) moves out ahead of the range: pure, and computed
  // from values defined before the range, it may run before the tasks.
  SmallPtrSet<Operation *, 8> inRange;
  for (Operation *op = first;; op = op->getNextNode()) {
    inRange.insert(op);
    if (op == last)
      break;
  }
  for (Operation *op = first, *next = nullptr; op != last->getNextNode(); op = next) {
    next = op->getNextNode();
    if (op == first || op == last || !isPureLeafOp(op) || !usedAfter(op, last))
      continue;
    if (llvm::any_of(op->getOperands(), [&](Value v) {
          Operation *def = v.getDefiningOp();
          return def && inRange.contains(def);
        }))
      continue;
    op->moveBefore(first);
    inRange.erase(op);
  }
  // Values the range defines must not be used after it (the epoch has no results).
  for (Operation *op = first;; op = op->getNextNode()) {
    if (usedAfter(op, last))
      return reportAt->emitError("cannot group the tasks before this barrier into an epoch: "
                                 "a value they define is used after it");
    if (op == last)
      break;
  }
  OpBuilder b(first);
  auto epoch = EpochOp::create(b, first->getLoc(), b.getI64Type());
  Block *body = b.createBlock(&epoch.getBody());
  b.setInsertionPointToEnd(body);
  auto yield = YieldOp::create(b, first->getLoc());
  Operation *stop = last->getNextNode();
  for (Operation *op = first; op != stop;) {
    Operation *next = op->getNextNode();
    op->moveBefore(yield);
    op = next;
  }
  return success();
}

struct Epochs : arts::impl::EpochsBase<Epochs> {
  void runOnOperation() override {
    SmallVector<BarrierOp> barriers;
    getOperation()->walk([&](BarrierOp barrier) { barriers.push_back(barrier); });
    for (BarrierOp barrier : barriers) {
      if (barrier->getParentOfType<EdtOp>()) {
        barrier.emitError("barrier inside a task is left after concurrency-opt");
        return signalPassFailure();
      }
      // The launches since the previous synchronisation point in this block.
      Operation *first = nullptr;
      for (Operation *op = barrier->getPrevNode(); op; op = op->getPrevNode()) {
        if (isa<BarrierOp, EpochOp>(op))
          break;
        if (launchesTasks(op))
          first = op;
      }
      if (first) {
        CARTS_DEBUG("epochs", barrier) << "barrier -> epoch around the task launches since "
                                       << locationString(first->getLoc()) << "\n";
        if (failed(wrapInEpoch(first, barrier->getPrevNode(), barrier)))
          return signalPassFailure();
      } else {
        CARTS_DEBUG("epochs", barrier) << "barrier with no task launch before it: removed\n";
      }
      barrier.erase();
    }
    SmallVector<EdtOp> unsynchronised;
    getOperation()->walk([&](EdtOp edt) {
      if (!edt->getParentOfType<EdtOp>() && !edt->getParentOfType<EpochOp>())
        unsynchronised.push_back(edt);
    });
    for (EdtOp edt : unsynchronised) {
      CARTS_DEBUG("epochs", edt) << stringifyEdtType(edt.getEdtType())
                                 << " task outside any epoch -> its own epoch\n";
      // Its acquires go along so the epoch holds everything the launch needs.
      Operation *first = edt;
      for (Value dep : edt.getDeps())
        if (Operation *def = dep.getDefiningOp(); def && def->getBlock() == edt->getBlock() &&
                                                   def->isBeforeInBlock(first) && def->hasOneUse())
          first = def;
      if (failed(wrapInEpoch(first, edt, edt)))
        return signalPassFailure();
    }
    int epochs = 0;
    getOperation()->walk([&](EpochOp) { ++epochs; });
    CARTS_DEBUG("epochs", getOperation()) << epochs << " epochs\n";
  }
};
} // namespace
