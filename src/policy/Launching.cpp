//===- Launching.cpp - who launches a loop's chunk tasks ------------------===//

#include "policy/Launching.h"

#include <string>

using namespace mlir::arts;

std::optional<std::string> mlir::arts::launchersRefused(int64_t threads, int64_t nodes) {
  if (nodes > 1)
    return std::string("several nodes: each node's tasks come with its launch message");
  if (threads < kMinLauncherThreads)
    return std::to_string(threads) + " workers: the creator's launches keep up";
  return std::nullopt;
}

std::optional<std::string> mlir::arts::creatorKeeps(std::optional<int64_t> chunkOps,
                                                    std::optional<int64_t> trips, bool last,
                                                    int64_t perLauncher) {
  if (chunkOps && *chunkOps >= kHeavyChunkOps)
    return "its tasks are heavy (" + std::to_string(*chunkOps) + " operations a chunk)";
  if (trips && last && *trips <= perLauncher)
    return std::string("its launches are the one group the creator makes itself");
  if (trips && *trips < kMinLauncherLaunches)
    return std::to_string(*trips) + " launches are fewer than a launcher is worth";
  return std::nullopt;
}
