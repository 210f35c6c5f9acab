//===- Partitioning.cpp - whether a datablock is cut into blocks ----------===//

#include "policy/Partitioning.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::arts;

PartitionDecision mlir::arts::decidePartition(llvm::ArrayRef<AcquireSummary> acquires,
                                              llvm::StringRef hostWhy, int64_t nodes) {
  PartitionDecision d;
  d.why = hostWhy.str();
  int64_t shares = 0;
  bool anyChunked = false;
  for (const AcquireSummary &a : acquires) {
    if (!a.rewritable && d.why.empty())
      d.why = a.why;
    if (a.chunked) {
      anyChunked = true;
      shares = std::max<int64_t>({shares, a.chunks(), 1});
    } else if (a.writes && d.why.empty() && a.inChunkTask) {
      d.why = "a chunk task writes it at an index not derived from its chunk";
    }
    d.internode |= a.internode;
  }
  if (acquires.empty())
    d.why = "no task acquires it";
  else if (!anyChunked && d.why.empty())
    d.why = "no task access is indexed by its chunk";
  else if (nodes <= 1 && d.why.empty() &&
           llvm::any_of(acquires, [](const AcquireSummary &a) { return !a.chunked; }))
    // Blocks pay off when they can live on different nodes. On one node a task reading
    // every block would make one dependence per block (workers x workers per loop, all
    // on the creating thread), where one datablock is one per task.
    d.why = "one node and a task reads every block";
  else if (nodes <= 1 && d.why.empty() && shares <= 1)
    d.why = "its loops make one chunk each: one block would be the whole array";
  d.block = d.why.empty();
  d.shares = std::max<int64_t>(shares, 1);
  return d;
}

bool mlir::arts::sharesCoarseWrite(const AcquireSummary &acquire) {
  return acquire.inChunkTask && acquire.writes && !acquire.soleChunk;
}

bool mlir::arts::sharesBoundaryBlocks(const AcquireSummary &acquire,
                                      llvm::function_ref<bool()> chunkHoldsWholeBlocks,
                                      int64_t nodes) {
  return nodes <= 1 && acquire.chunked && acquire.writes && !acquire.soleChunk &&
         !chunkHoldsWholeBlocks();
}

std::string mlir::arts::keptOnNodeZeroWhy(int64_t nodes, bool internode,
                                          llvm::StringRef distributableWhyNot) {
  if (nodes <= 1)
    return "";
  if (!internode)
    return "no internode task uses it";
  return distributableWhyNot.str();
}

int64_t mlir::arts::haloEdgeRows(int64_t rows, int64_t shares, int64_t workers, int64_t halo) {
  if (halo <= 0 || rows <= 0 || shares <= 0 || workers <= 0 || shares % workers != 0)
    return 0;
  int64_t share = (rows + shares - 1) / shares;
  int64_t last = rows - (shares - 1) * share;
  return last > 2 * halo ? halo : 0;
}
