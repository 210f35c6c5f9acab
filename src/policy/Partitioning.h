//===- Partitioning.h - whether a datablock is cut into blocks ------------===//
//
// db-partitioning gathers what each task does with an allocation (the IR
// facts), asks this for the decision and its reason, and applies it; the
// `db-partitioning` channel prints the reasons returned here.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_POLICY_PARTITIONING_H
#define CARTS_POLICY_PARTITIONING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::arts {

/// What a task does with an allocation it acquires.
struct AcquireSummary {
  bool rewritable = true;    ///< its view is used through plain loads and stores only
  bool chunked = false;      ///< ... each indexed by its chunk loop in the leading dimension
  bool inChunkTask = false;  ///< its task has a chunk loop
  bool soleChunk = false;    ///< ... and is its loop's only chunk (launched once)
  bool writes = false;       ///< its mode is not `in`
  bool internode = false;    ///< its task may run on any node
  int64_t teamWorkers = 0;   ///< the task's `arts.team_workers`, 0 when absent
  int64_t chunksPerWorker = 1; ///< its chunk loop's `arts.chunks_per_worker` (1 when absent)
  int64_t launches = 0;      ///< the constant trips of the launch loop creating it, 0: unknown
  std::string why;           ///< why it is not rewritable or not chunked

  /// The static chunks of its loop: a share per worker, each cut in chunksPerWorker, or
  /// fewer where its launch loop makes fewer (for-lowering's floor on a chunk's work).
  int64_t chunks() const {
    int64_t planned = teamWorkers * chunksPerWorker;
    return launches > 0 && launches < planned ? launches : planned;
  }
};

struct PartitionDecision {
  bool block = false;
  /// Blocks of ceil(rows / shares) rows: one per static chunk of the loops
  /// using it (their workers, times the chunks per worker where a worker's
  /// share is cut in several).
  int64_t shares = 1;
  /// Some task that uses it may run on another node.
  bool internode = false;
  /// Why it stays one datablock (empty when it is cut into blocks).
  std::string why;
};

/// Blocks when every task that acquires the allocation is a chunk task indexing
/// it by its chunk (on one node, also when some task reads every block: see the
/// .cpp), coarse otherwise. `hostWhy` is a reason the host's own use keeps it
/// whole ("" when it does not).
PartitionDecision decidePartition(llvm::ArrayRef<AcquireSummary> acquires, llvm::StringRef hostWhy,
                                  int64_t nodes);

/// Chunk tasks of one loop writing a coarse datablock at rows of their own
/// share it (mode concurrent) instead of taking turns. A loop's only chunk
/// shares with nobody: it keeps its exclusive mode, which orders it after the
/// tasks before it in the epoch, so epochs around it can fuse.
bool sharesCoarseWrite(const AcquireSummary &acquire);

/// A writing chunk task whose chunk is not a whole number of blocks (the loop
/// starts elsewhere than row 0, or its chunks are not the static share) shares the
/// boundary blocks with its neighbours, on one node only: across nodes a shared
/// block would travel as copies merged byte by byte. A loop's only chunk has no
/// neighbours.
/// `chunkHoldsWholeBlocks` is asked only when the rest holds (it inspects the
/// chunk loop).
bool sharesBoundaryBlocks(const AcquireSummary &acquire,
                          llvm::function_ref<bool()> chunkHoldsWholeBlocks, int64_t nodes);

/// The edge rows of a table spread over several nodes whose tasks read `halo` rows of their
/// neighbours' chunks (a stencil): each share is cut in three blocks, its first `halo` rows,
/// the rows between and its last `halo` rows, so that a task fetches from another node only
/// the edge next to its own rows, and acquires a handful of blocks. 0 keeps one block per
/// share. Shares are ceil(rows / shares) rows, the last one what is left. Only where the
/// blocks still line up with every chunk and with the owner rule: `shares` a multiple of the
/// `workers` the owner rule spreads them over, and every share (the last is the shortest)
/// more than two edges.
int64_t haloEdgeRows(int64_t rows, int64_t shares, int64_t workers, int64_t halo);

/// Why a block-partitioned allocation stays on node 0 of a run of `nodes`
/// (`distributableWhyNot`: what the IR forbids, "" if nothing), or "" when its
/// blocks are spread over the nodes.
std::string keptOnNodeZeroWhy(int64_t nodes, bool internode, llvm::StringRef distributableWhyNot);

} // namespace mlir::arts

#endif // CARTS_POLICY_PARTITIONING_H
