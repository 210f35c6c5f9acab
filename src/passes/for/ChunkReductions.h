//===- ChunkReductions.h - reductions of chunk and worker tasks -----------===//
//
// Part of for-lowering. A reduction loop cut into tasks accumulates in a
// private copy per task (initialised with the operator's identity), stored into
// slot k of a partials datablock that every task acquires `concurrent`; after
// the epoch the host combines the slots in order into the accumulator, so the
// result does not depend on which task ran first.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_PASSES_FOR_CHUNKREDUCTIONS_H
#define CARTS_PASSES_FOR_CHUNKREDUCTIONS_H

#include "dialect/ArtsDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::arts::forlowering {

/// One reduction of a loop and the partials datablock of its tasks.
struct Reduction {
  Value teamAcc;      ///< accumulator as the team saw it
  Value hostAcc;      ///< the same accumulator reached from the host
  ReductionKind kind;
  DbAllocOp partials;
  MemRefType accType;
};

/// A partials datablock of `count` slots (at `b`) for each reduction of `loop`.
LogicalResult planReductions(OpBuilder &b, Location loc, ForOp loop, EdtOp parallel,
                             Value count, SmallVector<Reduction> &reductions);

/// Every task writes its own slots of the partials tables: `concurrent`
/// acquires before `task`, the views as new task arguments.
SmallVector<Value> acquirePartials(EdtOp task, ArrayRef<Reduction> reductions);

/// Private accumulators at `b`, initialised with the operator's identity and
/// standing in for each `from` accumulator (each team accumulator when empty)
/// in `mapping`.
SmallVector<Value> privateAccumulators(OpBuilder &b, Location loc,
                                       ArrayRef<Reduction> reductions, IRMapping &mapping,
                                       ValueRange from = {});

/// Each private accumulator into slot `slot` of its partials table.
void storePartials(OpBuilder &b, Location loc, ArrayRef<Reduction> reductions,
                   ArrayRef<Value> privates, ArrayRef<Value> views, Value slot);

/// After the epoch: the partials combined in slot order into the accumulator.
void combinePartials(OpBuilder &b, Location loc, ArrayRef<Reduction> reductions, Value count);

} // namespace mlir::arts::forlowering

#endif // CARTS_PASSES_FOR_CHUNKREDUCTIONS_H
