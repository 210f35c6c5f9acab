//===- Routing.h - where chunk tasks run and datablock blocks live --------===//
//
// The one rule for task routes and datablock owners. Used by for-lowering
// (task routes), db-partitioning (block owners) and db-lowering (distributed
// ownership), so tasks run where their blocks live.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_POLICY_ROUTING_H
#define CARTS_POLICY_ROUTING_H

#include "mlir/IR/Builders.h"

#include <cstdint>
#include <string>

namespace mlir::arts {

/// route(b) = floor(b / chunksPerWorker) % totalNodes with
/// chunksPerWorker = ceil(totalChunks / (totalNodes * workersPerNode)).
int64_t routeOf(int64_t chunk, int64_t totalChunks, int64_t totalNodes, int64_t workersPerNode);

/// The rule as the debug channels print it: `route(b) = floor(b / ceil(chunks /
/// W)) % N` with W = totalNodes * workersPerNode and N = routeNodes (1 for a
/// task pinned to node 0, which keeps the workers of every node).
std::string describeRoute(int64_t totalNodes, int64_t workersPerNode, int64_t routeNodes);

/// The same rule emitted as IR on `index` values; returns an i32 route.
Value buildRoute(OpBuilder &builder, Location loc, Value chunk, Value totalChunks,
                 int64_t totalNodes, int64_t workersPerNode);

/// A chunk task's route: its node by the rule above, plus the worker on that
/// node, worker(b) = floor(b / chunksPerWorker) / totalNodes, encoded as the
/// runtime reads it: node + runtimeNodes * (1 + worker) (see arts.h). The same
/// chunk of every loop of the same shape asks for the same worker, so data a
/// worker wrote in one epoch is still in its cache in the next.
/// `runtimeNodes` is the run's node count (an intranode task has
/// totalNodes = 1 in a run of several nodes).
Value buildTaskRoute(OpBuilder &builder, Location loc, Value chunk, Value totalChunks,
                     int64_t totalNodes, int64_t workersPerNode, int64_t runtimeNodes);

} // namespace mlir::arts

#endif // CARTS_POLICY_ROUTING_H
