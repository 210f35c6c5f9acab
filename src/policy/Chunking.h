//===- Chunking.h - how a work-sharing loop is cut into chunk tasks -------===//
//
// for-lowering asks this for the chunk rule of each arts.for and applies it;
// the reason it returns is what the `for-lowering` channel prints.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_POLICY_CHUNKING_H
#define CARTS_POLICY_CHUNKING_H

#include "dialect/ArtsDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::arts {

/// A requested chunk size is raised so that a loop makes at most this many
/// chunks per worker: task creation is not free.
constexpr int64_t kMaxRequestedChunksPerWorker = 16;
/// A dynamic or guided schedule makes this many chunks per worker.
constexpr int64_t kDynamicChunksPerWorker = 4;
/// A static loop on one node whose share per worker weighs for-lowering's
/// `balance-ops` or more is cut into this many chunks per worker, routed to the
/// worker whose share they are: a worker that finishes early takes the last
/// chunks of a slower one. Cores of one machine do not run equal shares in
/// equal times (gemm at 16 threads: 18 to 29 ms for 64 rows each), and the loop
/// lasts as long as its slowest share. 8 chunks measured better than 4, and 4
/// better than 2 (16 threads, the six large examples this cuts: geometric mean
/// OMP/ours 1.20 with 4 against 1.26 with 8 in one call, 1.26 against 1.31 in
/// another).
constexpr int64_t kBalanceChunksPerWorker = 8;
/// ... with at least this many workers. The slowest of many shares is further
/// from the mean than the slowest of a few, while what a cut share costs stays:
/// chunks taken by other workers run on cold caches, and smaller blocks lose
/// their huge pages (gemm medium: 8-13% slower at 2 threads, 0-9% at 4, 0-4%
/// at 8, and 1-19% faster at 16).
constexpr int64_t kBalanceMinWorkers = 12;
/// The runtime maps a payload of this many bytes or more with huge pages
/// (runtime/src/db.c). A share is not cut when its blocks would fall below it:
/// layernorm large at 16 threads, 2 MiB blocks against 512 KiB ones, was
/// 17-32% slower cut.
constexpr int64_t kHugePageBytes = int64_t(2) << 20;

struct ChunkDecision {
  enum class Rule {
    Requested,   ///< chunk = max(requested, ceil(trips / divisor))
    StaticShare, ///< chunk = max(ceil(trips / divisor), minIterations)
    Dynamic,     ///< chunk = ceil(trips / divisor)
  };
  Rule rule = Rule::StaticShare;
  int64_t divisor = 1;
  /// Static share rule: chunks per worker, 1 or kBalanceChunksPerWorker (the
  /// divisor is workers times this).
  int64_t chunksPerWorker = 1;
  /// The fewest iterations a chunk gets (1: no floor).
  int64_t minIterations = 1;
  std::string reason;
};

/// The chunk rule of a loop shared by `workers` workers over `nodes` nodes:
/// the requested chunk when the loop names one, else by `schedule`. A static
/// loop on one node whose body costs `bodyWeight` operations per iteration gets
/// at least `minChunkOps` operations per chunk (0: no floor): below that,
/// creating a task and handing it to another worker costs more than its work.
/// for-lowering then evens the chunks out: as many as the floor makes, of
/// ceil(trips / count) iterations each, so no short last chunk is left over.
/// A static loop on one node of `trips` (when constant) iterations whose share
/// per worker weighs `balanceOps` or more (0: never) gets kBalanceChunksPerWorker
/// chunks per worker, when it has kBalanceMinWorkers workers or more and its
/// rows of `rowBytes` each (0: unknown) keep their huge pages.
/// A loop spread over nodes keeps chunk k on the node owning block k.
ChunkDecision decideChunking(bool requested, ScheduleKind schedule, int64_t workers, int64_t nodes,
                             int64_t bodyWeight, int64_t minChunkOps, int64_t balanceOps,
                             std::optional<int64_t> trips, int64_t rowBytes);

/// The bytes of one row of the largest array `body` accesses with `iv` (or an
/// integer cast of it, see rowOffsetFrom) as its leading index, trailing
/// dimensions static; 0 when there is none.
int64_t rowBytesAt(Region &body, Value iv);

/// The trip count of `loop` when its bounds and step fold to constants.
std::optional<int64_t> constantTripCount(scf::ForOp loop);
/// The same for the bounds and step of any loop (an arts.for's).
std::optional<int64_t> constantTripCount(Value lb, Value ub, Value step);

/// A rough operation count of one execution of `region`: nested loops multiply
/// their body by their trip count (64 when it is not a constant), calls count 20,
/// libm-like math functions 60, square roots 10, float divisions 8.
int64_t regionWeight(Region &region);

} // namespace mlir::arts

#endif // CARTS_POLICY_CHUNKING_H
