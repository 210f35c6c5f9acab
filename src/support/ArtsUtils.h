//===- ArtsUtils.h - helpers shared by the ARTS stage passes --------------===//
//
// The machine configuration (arts.cfg), the one routing rule, and the small
// IR queries several passes need (which memrefs a task captures, whether an
// op only reads or writes a memref).
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_SUPPORT_ARTSUTILS_H
#define CARTS_SUPPORT_ARTSUTILS_H

#include "dialect/ArtsDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::arts {

//===----------------------------------------------------------------------===//
// Machine configuration
//===----------------------------------------------------------------------===//

/// The machine the compiler plans for: workers per node and node count. The drivers
/// resolve it once from their flags, the environment and arts.cfg (carts_mlir.config) and
/// hand it to arts-concurrency as pass options; the passes read no file and no
/// environment variable, so a pipeline gives the same IR in any shell and directory.
struct MachineConfig {
  int64_t threads = 0; ///< workers per node
  int64_t nodes = 1;   ///< nodeCount
  std::string source;  ///< where the values came from, for debug lines
  int64_t totalWorkers() const { return threads * nodes; }
};

/// The machine of arts-concurrency's options: `threads` (> 0) else the online cores,
/// `nodes` (> 0) else 1.
MachineConfig machineFromOptions(int64_t threads, int64_t nodes);

/// The machine a module was compiled for, as arts-concurrency records it on the
/// module (`arts.threads`, `arts.nodes`); each at least 1, and 1 when absent.
int64_t moduleThreads(ModuleOp module);
int64_t moduleNodes(ModuleOp module);
void setModuleMachine(ModuleOp module, const MachineConfig &config);

/// The terms of the route formula a distributed allocation's block owners
/// follow (`arts.owner_rule`, set by db-partitioning).
struct OwnerRule {
  int64_t nodes = 1;
  int64_t workersPerNode = 1;
};
std::optional<OwnerRule> ownerRuleOf(Operation *alloc);
void setOwnerRule(Operation *alloc, OwnerRule rule);

//===----------------------------------------------------------------------===//
// IR queries
//===----------------------------------------------------------------------===//

/// Memref values used inside `region` but defined outside it, in first-use order.
llvm::SetVector<Value> capturedMemrefs(Region &region);

/// The allocation a payload table selects from: through acquires and the block
/// arguments of enclosing (not yet outlined) tasks; null when it cannot be told.
DbAllocOp traceAllocation(Value ptrs);

/// How an op uses a memref operand.
struct MemrefUse {
  bool reads = false;
  bool writes = false;
  bool atomic = false; ///< some access is atomic or inside an arts.critical
};
/// Accumulates how `op` (and, for view-like ops, its results' users) uses `memref`.
void accumulateUse(Operation *op, Value memref, MemrefUse &use);
/// How every user of `memref` inside `region` (or everywhere if null) uses it.
MemrefUse usesIn(Value memref, Region *region);

/// Empty when `op` runs at most once in a run of the program: neither it nor a
/// call leading to it sits in a loop, and each function on the way up to `main`
/// (or to a function nothing in the module calls) is called from one place. Else why it may run again (initPerNode makes a
/// distributed allocation's blocks once per run).
std::string runsMoreThanOnceWhy(Operation *op);

/// The access mode of a task that reads/writes a datablock.
ArtsMode modeFor(const MemrefUse &use);

/// Iterations of `for (i = lb; i < ub; i += step)` (step > 0): `ceil(max(ub - lb, 0) / step)`.
Value buildTripCount(OpBuilder &builder, Location loc, Value lb, Value ub, Value step);

/// `ceil(a / b)` on non-negative index values.
Value ceilDivIndex(OpBuilder &builder, Location loc, Value a, Value b);

/// The value of an integer or index computed from constants by arith ops
/// (constant, casts, add/sub/mul, div/ceildiv/rem, min/max), if it is one.
std::optional<int64_t> evaluateConstant(Value v);

/// `v` through the views and casts it was made from (ViewLikeOpInterface).
Value viewRoot(Value v);

/// Whether `op` has no memory effects and no regions: arithmetic that can move freely.
bool isPureLeafOp(Operation *op);

/// Whether `v` is an allocation of its own (`memref.alloc`/`alloca`): memory no other value
/// names unless made from it.
bool isAllocation(Value v);

/// How an access's leading index relates to a loop's IV: `iv + offset`.
struct RowOffset {
  int64_t offset = 0;
  /// Computed in a narrower integer and cast back: a C front end writes
  /// `A[i + 1]` for an `int i` as `index_cast(index_cast(iv) + 1)`. The
  /// narrow sum is `iv + offset` because iv counts that integer's loop and C
  /// rules out the overflow.
  bool narrowed = false;
};

/// `index` as `iv + c` (or `iv - c`, or `iv`), on index values or through the
/// integer casts of RowOffset::narrowed, if it is one.
std::optional<RowOffset> rowOffsetFrom(Value index, Value iv);

/// An allocation's bytes, all its blocks together: element size times its element sizes
/// (an extent not known at compile time counts 1), saturated at 2^50.
int64_t allocationBytes(DbAllocOp alloc);

/// The memref and indices of a `memref.load` or `memref.store`, if `op` is one.
std::optional<std::pair<Value, ValueRange>> loadOrStoreAccess(Operation *op);

} // namespace mlir::arts

#endif // CARTS_SUPPORT_ARTSUTILS_H
