//===- VerifyLowered.cpp - no high-level ARTS op after pre-lowering -------===//

#include "passes/PassDetail.h"

namespace mlir::arts {
#define GEN_PASS_DEF_VERIFYLOWERED
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
struct VerifyLowered : arts::impl::VerifyLoweredBase<VerifyLowered> {
  void runOnOperation() override {
    bool failed = false;
    // One error per construct: what is nested in a reported op is not reported again.
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isa<EdtOp, ForOp, BarrierOp, EpochOp, YieldOp, DbAllocOp, DbAcquireOp, DbRefOp,
               DbReleaseOp, DbFreeOp, DbSyncOp>(op) ||
          (isa<YieldOp>(op) && isa<CriticalOp>(op->getParentOp())))
        return WalkResult::advance(); // arts.critical is lowered by arts-to-llvm
      op->emitError() << "'" << op->getName() << "' left after pre-lowering";
      failed = true;
      return WalkResult::skip();
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
