//===- VerifyNoOmp.cpp - no OpenMP op survives openmp-to-arts -------------===//

#include "passes/PassDetail.h"

namespace mlir::arts {
#define GEN_PASS_DEF_VERIFYNOOMP
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;

namespace {
struct VerifyNoOmp : arts::impl::VerifyNoOmpBase<VerifyNoOmp> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      if (op->getDialect() && op->getDialect()->getNamespace() == "omp") {
        op->emitError() << "'" << op->getName() << "' left after openmp-to-arts";
        failed = true;
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
