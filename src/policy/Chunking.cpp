//===- Chunking.cpp - how a work-sharing loop is cut into chunk tasks -----===//

#include "policy/Chunking.h"

#include "support/ArtsUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::arts;

ChunkDecision mlir::arts::decideChunking(bool requested, ScheduleKind schedule, int64_t workers,
                                         int64_t nodes, int64_t bodyWeight, int64_t minChunkOps,
                                         int64_t balanceOps, std::optional<int64_t> trips,
                                         int64_t rowBytes) {
  ChunkDecision d;
  if (requested) {
    d.rule = ChunkDecision::Rule::Requested;
    d.divisor = workers * kMaxRequestedChunksPerWorker;
    d.reason = "requested chunk (at most " + std::to_string(kMaxRequestedChunksPerWorker) +
               " per worker)";
    return d;
  }
  if (schedule != ScheduleKind::static_ && schedule != ScheduleKind::auto_) {
    d.rule = ChunkDecision::Rule::Dynamic;
    d.divisor = workers * kDynamicChunksPerWorker;
    d.reason = "dynamic: ceil(trips/(" + std::to_string(kDynamicChunksPerWorker) + "*workers))";
    return d;
  }
  d.rule = ChunkDecision::Rule::StaticShare;
  d.divisor = workers;
  d.reason = "static share ceil(trips/workers)";
  int64_t weight = std::max<int64_t>(1, bodyWeight);
  if (nodes == 1 && workers >= kBalanceMinWorkers && balanceOps > 0 && trips) {
    int64_t share = (*trips + workers - 1) / workers;
    uint64_t shareOps = llvm::SaturatingMultiply<uint64_t>(share, weight);
    int64_t cutShare = (share + kBalanceChunksPerWorker - 1) / kBalanceChunksPerWorker;
    bool losesHugePages =
        rowBytes > 0 && llvm::SaturatingMultiply<uint64_t>(share, rowBytes) >=
                            static_cast<uint64_t>(kHugePageBytes) &&
        llvm::SaturatingMultiply<uint64_t>(cutShare, rowBytes) <
            static_cast<uint64_t>(kHugePageBytes);
    bool heavy = share >= kBalanceChunksPerWorker &&
                 shareOps >= static_cast<uint64_t>(balanceOps);
    if (heavy && losesHugePages) {
      d.reason = "static share ceil(trips/workers), not cut in " +
                 std::to_string(kBalanceChunksPerWorker) + ": blocks of " +
                 std::to_string(share) + " rows of " + std::to_string(rowBytes) +
                 " bytes have huge pages, blocks of " + std::to_string(cutShare) +
                 " rows would not";
      return d;
    }
    if (heavy) {
      d.chunksPerWorker = kBalanceChunksPerWorker;
      d.divisor = workers * kBalanceChunksPerWorker;
      d.reason = "static share in " + std::to_string(kBalanceChunksPerWorker) +
                 " chunks per worker (about " + std::to_string(shareOps) +
                 " operations a worker): ceil(trips/(" + std::to_string(kBalanceChunksPerWorker) +
                 "*workers))";
      return d;
    }
  }
  if (nodes == 1 && minChunkOps > 0)
    d.minIterations = (minChunkOps + weight - 1) / weight;
  if (d.minIterations > 1)
    d.reason += ", at least " + std::to_string(d.minIterations) + " iterations (about " +
                std::to_string(weight) + " operations each), evened out";
  return d;
}

/// The rough cost of `op` itself, in simple operations (an add, a load): a call 20; a math
/// function that becomes a libm call (exp, log, pow, sin, tanh, ...) 60, measured as about
/// 5 ns a call against some 0.1 ns a simple operation; a square root 10; a float division 8.
static int64_t opWeight(Operation &op) {
  if (isa<func::CallOp>(op))
    return 20;
  if (isa<arith::DivFOp, arith::RemFOp>(op))
    return 8;
  if (op.getDialect() && op.getDialect()->getNamespace() == "math") {
    if (isa<math::SqrtOp, math::RsqrtOp>(op))
      return 10;
    if (isa<math::AbsFOp, math::AbsIOp, math::CopySignOp, math::FmaOp, math::FloorOp,
            math::CeilOp, math::RoundOp, math::RoundEvenOp, math::TruncOp,
            math::CountLeadingZerosOp, math::CountTrailingZerosOp, math::CtPopOp>(op))
      return 1;
    return 60;
  }
  return 1;
}

std::optional<int64_t> mlir::arts::constantTripCount(scf::ForOp loop) {
  return constantTripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
}

std::optional<int64_t> mlir::arts::constantTripCount(Value lower, Value upper, Value stride) {
  std::optional<int64_t> lb = evaluateConstant(lower);
  std::optional<int64_t> ub = evaluateConstant(upper);
  std::optional<int64_t> step = evaluateConstant(stride);
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
}

int64_t mlir::arts::rowBytesAt(Region &body, Value iv) {
  int64_t largest = 0;
  body.walk([&](Operation *op) {
    auto access = loadOrStoreAccess(op);
    if (!access)
      return;
    auto [memref, indices] = *access;
    auto type = cast<MemRefType>(memref.getType());
    std::optional<RowOffset> row =
        indices.empty() ? std::nullopt : rowOffsetFrom(indices.front(), iv);
    if (!row || row->offset != 0 || !type.getElementType().isIntOrFloat())
      return;
    uint64_t bytes = (type.getElementType().getIntOrFloatBitWidth() + 7) / 8;
    for (int64_t dim : type.getShape().drop_front()) {
      if (ShapedType::isDynamic(dim))
        return;
      bytes = llvm::SaturatingMultiply<uint64_t>(bytes, static_cast<uint64_t>(dim));
    }
    largest = std::max<int64_t>(largest, static_cast<int64_t>(std::min<uint64_t>(
                                             bytes, std::numeric_limits<int64_t>::max())));
  });
  return largest;
}

int64_t mlir::arts::regionWeight(Region &region) {
  constexpr int64_t kCap = int64_t(1) << 40;
  int64_t total = 0;
  for (Block &block : region)
    for (Operation &op : block) {
      int64_t own = opWeight(op);
      int64_t inner = 0;
      for (Region &r : op.getRegions())
        inner += regionWeight(r);
      int64_t times = 1;
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        times = constantTripCount(loop).value_or(64);
      } else if (isa<scf::WhileOp>(op)) {
        times = 64;
      }
      total = std::min(kCap, total + own + std::min(kCap, inner * times));
    }
  return total;
}
