//===- BlockSegments.h - task loops split where the block changes ---------===//
//
// A loop in a task that selects blocks by `iv / B` and `iv mod B` (a
// partitioned access indexed by the loop, B invariant) is split where the
// block changes:
//
//   scf.for %iv = %lo to %hi step %s { ... %iv / B ... %iv mod B ... }
//   ->
//   scf.while (%start = %lo) : start < hi {
//     %k = %start / B, %base = %start - %start mod B,
//     %end = min(start + B - start mod B, hi)
//     scf.for %iv = %start to %end step %s { ... %k ... %iv - %base ... }
//   } next start = the first iteration at or after %end
//
// so the block selection moves out of the inner loop, which then indexes one
// block with plain affine math. The split is exact for every index value (a
// negative start ends its segment at 0, where the unsigned quotient wraps).
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_PASSES_EDT_BLOCKSEGMENTS_H
#define CARTS_PASSES_EDT_BLOCKSEGMENTS_H

#include "mlir/IR/BuiltinOps.h"

namespace mlir::arts {

/// Splits every loop of every task (arts.edt) that selects blocks by its
/// induction variable, innermost first; prints each split on the
/// `edt-lowering` channel.
void splitTaskLoopsAtBlockBoundaries(ModuleOp module);

} // namespace mlir::arts

#endif // CARTS_PASSES_EDT_BLOCKSEGMENTS_H
