//===- Routing.cpp - where chunk tasks run and datablock blocks live ------===//

#include "policy/Routing.h"

#include "support/ArtsUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::arts;

int64_t mlir::arts::routeOf(int64_t chunk, int64_t totalChunks, int64_t totalNodes,
                            int64_t workersPerNode) {
  int64_t workers = std::max<int64_t>(1, totalNodes * workersPerNode);
  int64_t chunksPerWorker = std::max<int64_t>(1, (totalChunks + workers - 1) / workers);
  return (chunk / chunksPerWorker) % std::max<int64_t>(1, totalNodes);
}

std::string mlir::arts::describeRoute(int64_t totalNodes, int64_t workersPerNode,
                                      int64_t routeNodes) {
  return "route(b) = floor(b / ceil(chunks / " + std::to_string(totalNodes * workersPerNode) +
         ")) % " + std::to_string(routeNodes);
}

/// The worker a chunk goes to over all nodes, w = floor(b / chunksPerWorker), as IR.
static Value workerOfChunk(OpBuilder &builder, Location loc, Value chunk, Value totalChunks,
                           int64_t totalNodes, int64_t workersPerNode) {
  Value workers = arith::ConstantIndexOp::create(builder, loc,
                                                 std::max<int64_t>(1, totalNodes * workersPerNode));
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value perWorker = arith::MaxUIOp::create(builder, loc, ceilDivIndex(builder, loc, totalChunks, workers), one);
  return arith::DivUIOp::create(builder, loc, chunk, perWorker);
}

Value mlir::arts::buildRoute(OpBuilder &builder, Location loc, Value chunk, Value totalChunks,
                             int64_t totalNodes, int64_t workersPerNode) {
  if (totalNodes <= 1)
    return arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0);
  Value worker = workerOfChunk(builder, loc, chunk, totalChunks, totalNodes, workersPerNode);
  Value nodes = arith::ConstantIndexOp::create(builder, loc, totalNodes);
  Value route = arith::RemUIOp::create(builder, loc, worker, nodes);
  return arith::IndexCastOp::create(builder, loc, builder.getI32Type(), route);
}

Value mlir::arts::buildTaskRoute(OpBuilder &builder, Location loc, Value chunk,
                                 Value totalChunks, int64_t totalNodes, int64_t workersPerNode,
                                 int64_t runtimeNodes) {
  totalNodes = std::max<int64_t>(1, totalNodes);
  Value worker = workerOfChunk(builder, loc, chunk, totalChunks, totalNodes, workersPerNode);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value nodes = arith::ConstantIndexOp::create(builder, loc, totalNodes);
  Value node = arith::RemUIOp::create(builder, loc, worker, nodes);
  Value local = arith::DivUIOp::create(builder, loc, worker, nodes);
  Value scale = arith::ConstantIndexOp::create(builder, loc, std::max<int64_t>(1, runtimeNodes));
  Value asked = arith::MulIOp::create(builder, loc, scale,
                                      arith::AddIOp::create(builder, loc, local, one));
  Value route = arith::AddIOp::create(builder, loc, node, asked);
  return arith::IndexCastOp::create(builder, loc, builder.getI32Type(), route);
}
