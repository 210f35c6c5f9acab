//===- Launching.h - who launches a loop's chunk tasks --------------------===//
//
// launch-fanout asks these whether a launch loop is handed to launcher tasks,
// and applies the answer; the reason is what the `launch-fanout` channel
// prints. unroll-jam's row count is here too: both decide how much work one
// task or one iteration carries.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_POLICY_LAUNCHING_H
#define CARTS_POLICY_LAUNCHING_H

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::arts {

/// Below this many workers the creator's launches keep up with the tasks.
constexpr int64_t kMinLauncherThreads = 4;

/// A loop of fewer launches stays with the creator: starting a launcher on
/// another core and bringing the loop's lines there costs about as much as the
/// launches themselves.
constexpr int64_t kMinLauncherLaunches = 3;

/// A loop whose chunks weigh this many operations or more (`arts.chunk_ops`,
/// from for-lowering) stays with the creator: its launches, about a microsecond
/// each, are a small part of tasks of a millisecond, and a launcher only delays
/// the tasks it starts (layernorm large at 16 threads, 64 rows of 8192 a chunk:
/// 2.2 ms with launchers, 1.7 ms without).
constexpr int64_t kHeavyChunkOps = int64_t(1) << 20;

/// Why a module's launch loops all stay with their creator (several nodes: a
/// node's tasks are launched where the launch message arrives; too few
/// workers), or nothing when launchers may take them.
std::optional<std::string> launchersRefused(int64_t threads, int64_t nodes);

/// Why one launch loop stays with its creator, or nothing when its groups of
/// `perLauncher` launches go to launchers. `chunkOps`: the operations of one
/// chunk; `trips`: the loop's launches when constant; `last`: the last loop of
/// its epoch's group, whose final group the creator makes itself.
std::optional<std::string> creatorKeeps(std::optional<int64_t> chunkOps,
                                        std::optional<int64_t> trips, bool last,
                                        int64_t perLauncher);

/// Rows of a chunk loop unroll-jam runs through one inner loop: four
/// independent chains of ordered float adds, enough to cover the latency of an
/// add on the cores measured, each row's sum still in source order.
constexpr int64_t kJamRows = 4;

} // namespace mlir::arts

#endif // CARTS_POLICY_LAUNCHING_H
