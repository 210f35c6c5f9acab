//===- ChunkReductions.h - reductions of chunk and worker tasks -----------===//
//
// Part of for-lowering. A reduction loop cut into tasks accumulates in a
// private copy per task (initialised with the operator's identity), stored into
// slot k of a partials datablock that every task acquires `concurrent`; after
// the epoch the host combines the slots in order into the accumulator, so the
// result does not depend on which task ran first. Over several nodes the
// tasks' slots live in a block on each node; a task per node combines its
// node's slots and only that partial travels to the host's table.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_PASSES_FOR_CHUNKREDUCTIONS_H
#define CARTS_PASSES_FOR_CHUNKREDUCTIONS_H

#include "dialect/ArtsDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::arts::forlowering {

/// How the tasks of a loop spread over nodes are routed (policy/Routing.h):
/// `nodes` > 1 gives each node a partial of its own.
struct NodeSplit {
  int64_t nodes = 1;
  int64_t workersPerNode = 1;
};

/// One reduction of a loop and the partials datablock of its tasks.
struct Reduction {
  Value teamAcc;      ///< accumulator as the team saw it
  Value hostAcc;      ///< the same accumulator reached from the host
  ReductionKind kind;
  DbAllocOp partials; ///< the slots the host combines (a task's, or a node's)
  MemRefType accType;
  /// Over several nodes: one block per node, on that node, holding the slots of the
  /// tasks routed there (null on one node).
  DbAllocOp nodeParts = nullptr;
};

/// A partials datablock of `count` slots (at `b`) for each reduction of `loop`.
/// Spread over nodes, the tasks' slots are in `nodeParts` (a block per node, owned by
/// it) and `partials` has a slot per node.
LogicalResult planReductions(OpBuilder &b, Location loc, ForOp loop, EdtOp parallel,
                             Value count, SmallVector<Reduction> &reductions,
                             NodeSplit split = {});

/// Every task writes its own slots of the partials tables: `concurrent`
/// acquires before `task`, the views as new task arguments. Spread over nodes,
/// task `slot` (of `count`) acquires its node's block.
SmallVector<Value> acquirePartials(EdtOp task, ArrayRef<Reduction> reductions, Value slot = {},
                                   Value count = {}, NodeSplit split = {});

/// Over several nodes, at `b` inside the tasks' epoch after their launch: a task
/// on each node combines the slots of the tasks routed there, in slot order, into
/// the node's slot of `partials`. Only those partials leave the nodes.
void combineOnNodes(OpBuilder &b, Location loc, ArrayRef<Reduction> reductions, Value count,
                    NodeSplit split);

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
