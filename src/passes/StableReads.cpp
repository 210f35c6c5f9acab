//===- StableReads.cpp - reads of datablocks that no task writes ----------===//
//
// Described in Passes.td (`StableReads`). Why it is sound: tasks reach a
// datablock only through their acquires (arts-verify-edt-deps), and the host
// touches payloads only outside the epochs that run tasks on them (the host
// waits before it reads or writes, as after an OpenMP barrier). So when every
// acquire of an allocation is `in`, no two accesses a task makes to it can
// conflict, and its READ generations order nothing.
//
//===----------------------------------------------------------------------===//

#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "llvm/ADT/MapVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_STABLEREADS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
constexpr const char *kChannel = "stable-reads";

/// The acquires of one allocation, and the first that writes it.
struct AllocAcquires {
  SmallVector<DbAcquireOp> acquires;
  DbAcquireOp writer;
};

struct StableReads : arts::impl::StableReadsBase<StableReads> {
  void runOnOperation() override {
    llvm::MapVector<Operation *, AllocAcquires> byAlloc;
    DbAcquireOp untracedWriter;
    getOperation()->walk([&](DbAcquireOp acquire) {
      DbAllocOp alloc = traceAllocation(acquire.getSourcePtrs());
      bool writes = acquire.getMode() != ArtsMode::in;
      if (!alloc) {
        if (writes && !untracedWriter)
          untracedWriter = acquire;
        return;
      }
      AllocAcquires &entry = byAlloc[alloc];
      entry.acquires.push_back(acquire);
      if (writes && !entry.writer)
        entry.writer = acquire;
    });
    if (untracedWriter) {
      CARTS_DEBUG(kChannel, untracedWriter)
          << "this acquire writes a datablock not traced to its allocation: no read is "
             "marked stable\n";
      return;
    }
    for (auto &[op, entry] : byAlloc) {
      auto alloc = cast<DbAllocOp>(op);
      if (entry.writer) {
        CARTS_DEBUG(kChannel, alloc)
            << "not stable: a task acquires it <" << stringifyArtsMode(entry.writer.getMode())
            << "> at " << locationString(entry.writer.getLoc()) << "\n";
        continue;
      }
      for (DbAcquireOp acquire : entry.acquires)
        acquire.setStable(true);
      CARTS_DEBUG(kChannel, alloc) << "stable: no task writes it; " << entry.acquires.size()
                                   << " <in> acquire(s) marked\n";
    }
  }
};
} // namespace
