//===- PassDetail.h - shared includes of the ARTS passes ------------------===//

#ifndef CARTS_PASSES_PASSDETAIL_H
#define CARTS_PASSES_PASSDETAIL_H

#include "dialect/ArtsDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::arts {
#define GEN_PASS_DECL
#include "carts/Passes.h.inc"

/// Registers every pass of Passes.td (called once by the plugin entry point).
void registerAllArtsPasses();
} // namespace mlir::arts

#endif // CARTS_PASSES_PASSDETAIL_H
