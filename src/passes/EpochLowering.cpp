//===- EpochLowering.cpp - epochs become runtime epoch calls --------------===//
//
// Described in Passes.td (`EpochLowering`).
//
//===----------------------------------------------------------------------===//

#include "support/Debug.h"
#include "passes/PassDetail.h"

namespace mlir::arts {
#define GEN_PASS_DEF_EPOCHLOWERING
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

static constexpr llvm::StringLiteral kChannel = "epoch-lowering";

namespace {
struct EpochLowering : arts::impl::EpochLoweringBase<EpochLowering> {
  void runOnOperation() override {
    // Outermost first: the nearest-epoch test below still sees the inner epochs.
    SmallVector<EpochOp> epochs;
    getOperation().walk<WalkOrder::PreOrder>([&](EpochOp epoch) { epochs.push_back(epoch); });
    for (EpochOp epoch : epochs)
      lower(epoch);
  }

  void lower(EpochOp epoch) {
    OpBuilder b(epoch);
    Location loc = epoch.getLoc();
    Value guid = CreateEpochOp::create(b, loc, b.getI64Type());
    unsigned joined = 0;
    epoch.getBody().walk([&](EdtCreateOp create) {
      if (create.getEpoch() || create->getParentOfType<EpochOp>() != epoch)
        return;
      create.getEpochMutable().assign(guid);
      ++joined;
    });
    Block &body = epoch.getBody().front();
    body.getTerminator()->erase();
    epoch->getBlock()->getOperations().splice(epoch->getIterator(), body.getOperations());
    b.setInsertionPoint(epoch);
    WaitOnEpochOp::create(b, loc, guid);
    epoch.getGuid().replaceAllUsesWith(guid);
    CARTS_DEBUG(kChannel, epoch) << "epoch -> create_epoch + wait_on_epoch, " << joined
                                 << " edt_create joined\n";
    epoch.erase();
  }
};
} // namespace
