//===- Concurrency.cpp - workers and node placement of parallel tasks -----===//
//
// Decides, for every parallel task, how many workers share its work-sharing
// loops and whether they may span nodes, from the machine configuration the
// runtime will read (arts.cfg: `threads` per node, `nodeCount`). The loops
// themselves stay `arts.for`; concurrency-opt splits them.
//
// With several nodes a parallel task may span them (`internode`) unless its body
// dereferences a pointer held in a datablock (a `T*` variable captured by the task,
// `firstprivate(p)`): such a pointer is an address in node 0's memory, so the task
// stays on node 0 (`intranode`, every chunk routed there).
//
//===----------------------------------------------------------------------===//

#include "passes/ArtsUtils.h"
#include "passes/Debug.h"
#include "passes/PassDetail.h"

namespace mlir::arts {
#define GEN_PASS_DEF_CONCURRENCY
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
/// Whether the task body reads a pointer out of a datablock: a `db_ref` whose block
/// holds memrefs (an address valid only in the process that stored it).
bool dereferencesStoredPointer(EdtOp edt) {
  bool found = false;
  edt.getBody().walk([&](DbRefOp ref) {
    if (isa<MemRefType>(cast<MemRefType>(ref.getPayload().getType()).getElementType()))
      found = true;
  });
  return found;
}

struct Concurrency : arts::impl::ConcurrencyBase<Concurrency> {
  using ConcurrencyBase::ConcurrencyBase;

  void runOnOperation() override {
    MachineConfig config;
    std::string error;
    if (failed(readMachineConfig(configFile, threads, nodes, config, error))) {
      getOperation().emitError(error);
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    Builder builder(ctx);
    getOperation()->setAttr("arts.threads", builder.getI64IntegerAttr(config.threads));
    getOperation()->setAttr("arts.nodes", builder.getI64IntegerAttr(config.nodes));
    getOperation()->walk([&](EdtOp edt) {
      if (edt.getEdtType() != EdtType::parallel)
        return;
      // An explicit num_threads wins on one node; otherwise every worker of every node.
      int64_t workers = config.totalWorkers();
      bool fromClause = false;
      if (auto requested = edt.getWorkers(); requested && config.nodes == 1) {
        workers = *requested;
        fromClause = true;
      }
      bool pinned = config.nodes > 1 && dereferencesStoredPointer(edt);
      auto kind = config.nodes > 1 && !pinned ? EdtConcurrency::internode
                                              : EdtConcurrency::intranode;
      edt.setWorkersAttr(builder.getI64IntegerAttr(workers));
      edt.setConcurrencyAttr(EdtConcurrencyAttr::get(ctx, kind));
      CARTS_DEBUG("concurrency", edt)
          << "parallel task workers=" << workers << (fromClause ? " (num_threads)" : "")
          << " threads=" << config.threads << " nodes=" << config.nodes << " "
          << stringifyEdtConcurrency(kind) << " (config: " << config.source << ")"
          << (pinned ? " on node 0: it dereferences a pointer held in a datablock" : "") << "\n";
      // The placement for-lowering will apply, reported where the loops still stand.
      edt.getBody().walk([&](ForOp loop) {
        CARTS_DEBUG("for_lowering", loop)
            << "arts.for planned: workers=" << workers << " (" << config.threads
            << " per node x " << config.nodes << " nodes) route(b) = floor(b / ceil(chunks / "
            << config.totalWorkers() << ")) % " << (pinned ? 1 : config.nodes) << " distributed="
            << (config.nodes == 1 ? "no (one node)"
                                  : pinned ? "no (pointers in datablocks: node 0)" : "candidate")
            << "\n";
      });
    });
  }
};
} // namespace
