//===- Concurrency.cpp - workers and node placement of parallel tasks -----===//
//
// Described in Passes.td (`Concurrency`).
//
//===----------------------------------------------------------------------===//

#include "policy/Chunking.h"
#include "policy/Routing.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"


namespace mlir::arts {
#define GEN_PASS_DEF_CONCURRENCY
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
/// Why code that runs in a task can only run in node 0's process, or "": `op` uses a
/// mutable global variable or an OpenMP lock, or calls a function of the module that does
/// (a recursive helper the inliner leaves, reached through `seen` once).
std::string nodeZeroUse(Operation *op, ModuleOp module, llvm::SmallPtrSetImpl<Operation *> &seen) {
  if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(module, get.getNameAttr());
    if (global && !global.getConstant())
      return "it uses the global variable @" + get.getName().str();
  } else if (auto addr = dyn_cast<LLVM::AddressOfOp>(op)) {
    auto global = SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(module, addr.getGlobalNameAttr());
    if (global && !global.getConstant())
      return "it uses the global variable @" + addr.getGlobalName().str();
  } else if (auto call = dyn_cast<func::CallOp>(op)) {
    if (call.getCallee().starts_with("omp_") && call.getCallee().contains("lock"))
      return "it uses an OpenMP lock (@" + call.getCallee().str() + "), a word of node 0's memory";
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal() || !seen.insert(callee).second)
      return "";
    std::string why;
    callee.walk([&](Operation *inner) {
      why = nodeZeroUse(inner, module, seen);
      return why.empty() ? WalkResult::advance() : WalkResult::interrupt();
    });
    if (!why.empty())
      return why + " in @" + call.getCallee().str();
  }
  return "";
}

/// Why the task body can only run in node 0's process, or "" if it can run anywhere:
/// it reads a pointer out of a datablock (a `db_ref` whose block holds memrefs), or it
/// uses a mutable global variable or a lock, itself or in a function it calls.
std::string nodeZeroOnly(EdtOp edt, ModuleOp module) {
  std::string why;
  // A global the task captures (its get_global hoisted out of the task, as CSE and the
  // inlining of a helper that takes the array as a pointer leave it) counts as a use.
  for (Value captured : capturedMemrefs(edt.getBody())) {
    auto get = viewRoot(captured).getDefiningOp<memref::GetGlobalOp>();
    if (!get)
      continue;
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(module, get.getNameAttr());
    if (global && !global.getConstant())
      return "it uses the global variable @" + get.getName().str();
  }
  llvm::SmallPtrSet<Operation *, 8> seen;
  edt.getBody().walk([&](Operation *op) {
    if (auto ref = dyn_cast<DbRefOp>(op)) {
      if (isa<MemRefType>(cast<MemRefType>(ref.getPayload().getType()).getElementType()))
        why = "it dereferences a pointer held in a datablock";
    } else {
      why = nodeZeroUse(op, module, seen);
    }
    return why.empty() ? WalkResult::advance() : WalkResult::interrupt();
  });
  return why;
}

/// What a parallel task's loops must weigh to be spread over several nodes, unless the
/// pass option says otherwise (drivers pass arts.cfg's or env nodeMinOps): an epoch across 2 nodes of one machine
/// costs ~100 us (benchmarks/nodes), about this many operations of a loop body.
constexpr int64_t kDefaultMinNodeOps = int64_t(1) << 18;

/// The operations of one execution of `edt`'s work-sharing loops (trips times the weight
/// of a body), or nullopt when it has none or one's trip count is not a constant.
std::optional<int64_t> loopWork(EdtOp edt) {
  int64_t total = 0;
  bool any = false, known = true;
  edt.getBody().walk([&](ForOp loop) {
    std::optional<int64_t> count =
        constantTripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    if (!count) {
      known = false;
      return WalkResult::interrupt();
    }
    any = true;
    constexpr int64_t kCap = int64_t(1) << 40;
    int64_t trips = std::min<int64_t>(kCap, *count);
    int64_t weight = std::min<int64_t>(kCap, std::max<int64_t>(1, regionWeight(loop.getBody())));
    int64_t work = trips > kCap / weight ? kCap : trips * weight;
    total = std::min<int64_t>(kCap, total + work);
    return WalkResult::advance();
  });
  if (!any || !known)
    return std::nullopt;
  return total;
}

struct Concurrency : arts::impl::ConcurrencyBase<Concurrency> {
  using ConcurrencyBase::ConcurrencyBase;

  void runOnOperation() override {
    MachineConfig config = machineFromOptions(threads, nodes);
    int64_t minOps = minNodeOps < 0 ? kDefaultMinNodeOps : minNodeOps;
    MLIRContext *ctx = &getContext();
    Builder builder(ctx);
    setModuleMachine(getOperation(), config);
    getOperation()->walk([&](EdtOp edt) {
      if (edt.getEdtType() != EdtType::parallel)
        return;
      // An explicit num_threads is the team size (a program may check it); a team that
      // fits on one node stays on node 0. Otherwise every worker of every node.
      int64_t workers = config.totalWorkers();
      bool fromClause = false;
      if (auto requested = edt.getWorkers()) {
        workers = *requested;
        fromClause = true;
      }
      std::string why = config.nodes > 1 ? nodeZeroOnly(edt, getOperation()) : std::string();
      if (why.empty() && config.nodes > 1 && fromClause && workers <= config.threads)
        why = "num_threads(" + std::to_string(workers) + ") fits on one node";
      // More threads than every node has workers: on one node, as a one-node run has it,
      // its threads taking turns on the node's workers.
      if (why.empty() && config.nodes > 1 && fromClause && workers > config.totalWorkers())
        why = "num_threads(" + std::to_string(workers) + ") is more than the " +
              std::to_string(config.totalWorkers()) +
              " workers of all nodes: its threads take turns on node 0's";
      if (why.empty() && config.nodes > 1 && minOps > 0)
        if (std::optional<int64_t> work = loopWork(edt); work && *work < minOps)
          why = "its loops weigh " + std::to_string(*work) + " operations, fewer than " +
                "min-node-ops=" + std::to_string(minOps) +
                " (an epoch across nodes costs more than that work)";
      bool pinned = !why.empty();
      auto kind = config.nodes > 1 && !pinned ? EdtConcurrency::internode
                                              : EdtConcurrency::intranode;
      edt.setWorkersAttr(builder.getI64IntegerAttr(workers));
      edt.setConcurrencyAttr(EdtConcurrencyAttr::get(ctx, kind));
      CARTS_DEBUG("concurrency", edt)
          << "parallel task workers=" << workers << (fromClause ? " (num_threads)" : "")
          << " threads=" << config.threads << " nodes=" << config.nodes << " "
          << stringifyEdtConcurrency(kind) << " (machine: " << config.source << ")"
          << (pinned ? " on node 0: " + why : std::string()) << "\n";
      // The placement for-lowering will apply, reported where the loops still stand.
      edt.getBody().walk([&](ForOp loop) {
        CARTS_DEBUG("for-lowering", loop)
            << "arts.for planned: workers=" << workers << " (" << config.threads
            << " per node x " << config.nodes << " nodes) "
            << describeRoute(config.nodes, config.threads, pinned ? 1 : config.nodes)
            << " distributed="
            << (config.nodes == 1 ? "no (one node)"
                                  : pinned ? "no (node 0's memory: node 0)" : "candidate")
            << "\n";
      });
    });
  }
};
} // namespace
