//===- AliasFacts.cpp - which datablock each access of a task reaches -----===//
//
// Described in Passes.td (`AliasFacts`). Why it is sound: every allocation is
// its own datablock table, and db-lowering gives each datablock a payload of
// its own (the buffer an allocation replaces is dropped), so accesses that go
// through the blocks of two different allocations never touch the same byte.
// An access the pass cannot trace to one allocation keeps no mark, and makes
// no claim.
//
//===----------------------------------------------------------------------===//

#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::arts {
#define GEN_PASS_DEF_ALIASFACTS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
constexpr const char *kChannel = "alias-facts";

/// Marks every memref.load/store reached from `block` (a block of dependency `id`, or a
/// view of one) with `id`; returns how many. Uses inside nested tasks are theirs.
unsigned markAccesses(Value block, int64_t id, EdtOp edt) {
  unsigned marked = 0;
  SmallVector<Value> work{block};
  auto attr = IntegerAttr::get(IntegerType::get(edt.getContext(), 64), id);
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user->getParentOfType<EdtOp>() != edt)
        continue;
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        if (use.get() == load.getMemRef()) {
          artsDialect(load)->getAliasArrayAttrHelper().setAttr(load, attr);
          ++marked;
        }
      } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
        if (use.get() == store.getMemRef()) {
          artsDialect(store)->getAliasArrayAttrHelper().setAttr(store, attr);
          ++marked;
        }
      } else if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == v)
          work.push_back(view->getResult(0));
      }
    }
  }
  return marked;
}

struct AliasFacts : arts::impl::AliasFactsBase<AliasFacts> {
  void runOnOperation() override {
    getOperation()->walk([&](EdtOp edt) {
      // One id per allocation among the task's dependencies, in their order.
      llvm::DenseMap<Operation *, int64_t> ids;
      Block &body = edt.getBody().front();
      unsigned marked = 0, untraced = 0;
      for (auto [dep, arg] : llvm::zip(edt.getDeps(), body.getArguments())) {
        auto acquire = dep.getDefiningOp<DbAcquireOp>();
        DbAllocOp alloc = acquire ? traceAllocation(acquire.getSourcePtrs()) : DbAllocOp();
        if (!alloc) {
          ++untraced;
          continue;
        }
        int64_t id = ids.try_emplace(alloc, (int64_t)ids.size()).first->second;
        // The dependency is a table of blocks: each block reached through it.
        for (Operation *user : arg.getUsers()) {
          if (auto ref = dyn_cast<DbRefOp>(user))
            if (ref.getPtrs() == arg && ref->getParentOfType<EdtOp>() == edt)
              marked += markAccesses(ref.getPayload(), id, edt);
          if (auto load = dyn_cast<memref::LoadOp>(user))
            if (isa<MemRefType>(load.getType()) && load->getParentOfType<EdtOp>() == edt)
              marked += markAccesses(load.getResult(), id, edt);
        }
      }
      CARTS_DEBUG(kChannel, edt) << "task: " << countOf(ids.size(), "allocation") << ", "
                                 << marked << " loads and stores marked"
                                 << (untraced ? ", a dependency not traced to its allocation" : "")
                                 << "\n";
    });
  }
};
} // namespace
