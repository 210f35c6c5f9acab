//===- VerifyEdtDeps.cpp - every task dependency is an acquire ------------===//

#include "passes/PassDetail.h"

namespace mlir::arts {
#define GEN_PASS_DEF_VERIFYEDTDEPS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
struct VerifyEdtDeps : arts::impl::VerifyEdtDepsBase<VerifyEdtDeps> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](EdtOp edt) {
      if (edt.getNoVerify()) {
        edt.emitError("task still marked no_verify after create-dbs");
        failed = true;
        return;
      }
      for (auto [i, dep] : llvm::enumerate(edt.getDeps()))
        if (!dep.getDefiningOp<DbAcquireOp>()) {
          edt.emitError("dependency #") << i << " does not come from arts.db_acquire";
          failed = true;
        }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
