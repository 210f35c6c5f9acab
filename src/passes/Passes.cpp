//===- Passes.cpp - registration of every ARTS pass -----------------------===//

#include "passes/PassDetail.h"

namespace mlir::arts {
namespace {
#define GEN_PASS_REGISTRATION
#include "carts/Passes.h.inc"
} // namespace

void registerAllArtsPasses() { registerArtsPasses(); }
} // namespace mlir::arts
