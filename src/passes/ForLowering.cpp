//===- ForLowering.cpp - work-sharing loops into per-chunk tasks ----------===//
//
// Described in Passes.td (`ForLowering`); the chunk rule is
// policy/Chunking.h and the routes policy/Routing.h. Values flowing from one
// barrier-separated part to the next must be recomputable (pure ops), since
// each part becomes separate tasks.
//
//===----------------------------------------------------------------------===//

#include "passes/for/ChunkReductions.h"
#include "policy/Chunking.h"
#include "policy/Routing.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

namespace mlir::arts {
#define GEN_PASS_DEF_FORLOWERING
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;
using namespace mlir::arts::forlowering;

namespace {

/// The placement decided by the concurrency stage.
struct Placement {
  int64_t workers = 1;        ///< total workers sharing the loop
  int64_t nodes = 1;          ///< nodes the loop is spread over
  int64_t runNodes = 1;       ///< nodeCount of the run
  int64_t workersPerNode = 1; ///< threads
  EdtConcurrency concurrency = EdtConcurrency::intranode;
};

Placement placementOf(EdtOp parallel) {
  Placement p;
  auto module = parallel->getParentOfType<ModuleOp>();
  p.nodes = moduleNodes(module);
  p.runNodes = p.nodes;
  p.workersPerNode = moduleThreads(module);
  p.workers = parallel.getWorkers().value_or(p.nodes * p.workersPerNode);
  p.workers = std::max<int64_t>(1, p.workers);
  p.concurrency = parallel.getConcurrency();
  // An intranode task of a multi-node run keeps its workers but routes every chunk to
  // node 0 (the concurrency pass pinned it there).
  if (p.concurrency == EdtConcurrency::intranode)
    p.nodes = 1;
  return p;
}

/// An epoch holding one loop `for k = zero; k < count; k += one` marked
/// `arts.launch_loop`, whose iterations launch the tasks; `b` is left before the
/// epoch's yield (callers set their own insertion points after).
std::pair<EpochOp, scf::ForOp> createLaunchLoop(OpBuilder &b, Location loc, Value zero,
                                                Value count, Value one) {
  auto epoch = EpochOp::create(b, loc, b.getI64Type());
  Block *epochBody = b.createBlock(&epoch.getBody());
  b.setInsertionPointToEnd(epochBody);
  YieldOp::create(b, loc);
  b.setInsertionPoint(epochBody->getTerminator());
  auto loop = scf::ForOp::create(b, loc, zero, count, one);
  artsDialect(loop)->getLaunchLoopAttrHelper().setAttr(loop, b.getUnitAttr());
  return {epoch, loop};
}

/// The inner loop of a collapse(2) nest: the arts.for's body is that loop
/// alone (openmp-to-arts marks it `arts.collapsed`).
scf::ForOp collapsedInner(ForOp loop) {
  Block &body = loop.getBody().front();
  if (!llvm::hasSingleElement(body.without_terminator()))
    return nullptr;
  auto inner = dyn_cast<scf::ForOp>(body.front());
  return inner && artsDialect(inner)->getCollapsedAttrHelper().isAttrPresent(inner) ? inner
                                                                                  : nullptr;
}

/// Calls `fn` with the allocation and the dimension of every load and store in `body`
/// through a datablock payload whose index in that dimension is `iv` plus a constant.
void indexedDims(Region &body, Value iv, function_ref<void(DbAllocOp, unsigned)> fn) {
  body.walk([&](Operation *op) {
    auto access = loadOrStoreAccess(op);
    if (!access)
      return;
    auto [memref, indices] = *access;
    auto ref = memref.getDefiningOp<DbRefOp>();
    DbAllocOp alloc = ref ? traceAllocation(ref.getPtrs()) : DbAllocOp();
    if (!alloc)
      return;
    for (auto [dim, index] : llvm::enumerate(indices))
      if (rowOffsetFrom(index, iv))
        fn(alloc, dim);
  });
}

/// The rows a stencil loop reads beyond its own: the largest |c| of a load at `iv + c`, c != 0,
/// in some dimension, when the loop also stores at `iv` itself (0 when it is no stencil).
int64_t stencilHalo(ForOp loop) {
  Value iv = loop.getInductionVar();
  int64_t halo = 0;
  bool writesOwnRows = false;
  loop.getBody().walk([&](Operation *op) {
    auto access = loadOrStoreAccess(op);
    if (!access)
      return;
    for (Value index : access->second) {
      std::optional<RowOffset> row = rowOffsetFrom(index, iv);
      if (!row)
        continue;
      if (isa<memref::StoreOp>(op))
        writesOwnRows |= row->offset == 0;
      else
        halo = std::max<int64_t>(halo, std::abs(row->offset));
    }
  });
  return writesOwnRows ? halo : 0;
}

struct ForLowering : arts::impl::ForLoweringBase<ForLowering> {
  using ForLoweringBase::ForLoweringBase;

  void runOnOperation() override {
    if (moduleNodes(getOperation()) > 1)
      chooseCollapsedChunkLoops();
    SmallVector<EdtOp> parallels;
    getOperation()->walk([&](EdtOp edt) {
      if (edt.getEdtType() == EdtType::parallel && !edt->getParentOfType<EdtOp>())
        parallels.push_back(edt);
    });
    for (EdtOp parallel : parallels)
      if (failed(lowerParallel(parallel)))
        return signalPassFailure();
  }

  /// On several nodes a collapse(2) nest's chunks are cut along its outer loop or along its
  /// inner one (its iterations are independent, so either order is the nest's): the one whose
  /// induction variable indexes the arrays in the dimensions the module's other work-sharing
  /// loops index them by theirs, weighted by the arrays' bytes, so that one cut of each array
  /// lets every loop's chunks run where their blocks live. A tie keeps the outer loop. The
  /// choice is `arts.chunk_inner` on the nest's arts.for.
  void chooseCollapsedChunkLoops() {
    SmallVector<ForOp> nests;
    llvm::DenseMap<std::pair<Operation *, unsigned>, int64_t> others;
    getOperation()->walk([&](ForOp loop) {
      auto parallel = loop->getParentOfType<EdtOp>();
      if (!parallel || parallel.getConcurrency() != EdtConcurrency::internode)
        return;
      if (collapsedInner(loop)) {
        nests.push_back(loop);
        return;
      }
      indexedDims(loop.getBody(), loop.getInductionVar(), [&](DbAllocOp alloc, unsigned dim) {
        others[{alloc.getOperation(), dim}] = allocationBytes(alloc);
      });
    });
    for (ForOp nest : nests) {
      scf::ForOp inner = collapsedInner(nest);
      auto score = [&](Region &body, Value iv) {
        llvm::DenseSet<std::pair<Operation *, unsigned>> seen;
        int64_t total = 0;
        indexedDims(body, iv, [&](DbAllocOp alloc, unsigned dim) {
          if (seen.insert({alloc.getOperation(), dim}).second)
            total += others.lookup({alloc.getOperation(), dim});
        });
        return total;
      };
      int64_t outerScore = score(nest.getBody(), nest.getInductionVar());
      int64_t innerScore = score(inner.getRegion(), inner.getInductionVar());
      if (innerScore <= outerScore)
        continue;
      artsDialect(nest)->getChunkInnerAttrHelper().setAttr(nest, UnitAttr::get(nest.getContext()));
      CARTS_DEBUG("for-lowering", nest)
          << "arts.for collapse(2) on several nodes: chunks along the inner loop (the other "
             "loops index "
          << innerScore << " bytes of arrays as the inner loop does, " << outerScore
          << " as the outer one)\n";
    }
  }

  //===--------------------------------------------------------------------===//
  // Splitting a parallel task into parts
  //===--------------------------------------------------------------------===//

  LogicalResult lowerParallel(EdtOp parallel) {
    Placement placement = placementOf(parallel);
    Block &body = parallel.getBody().front();
    if (failed(spreadPerThreadStorage(parallel, placement)))
      return failure();
    SmallVector<SmallVector<Operation *>> parts(1);
    for (Operation &op : body.without_terminator()) {
      if (isa<BarrierOp>(op)) {
        parts.emplace_back();
        continue;
      }
      if (isa<DbReleaseOp>(op))
        continue;
      parts.back().push_back(&op);
    }
    OpBuilder builder(parallel);
    for (auto &part : parts) {
      SmallVector<Operation *> effectful;
      for (Operation *op : part)
        if (!isPureLeafOp(op))
          effectful.push_back(op);
      if (effectful.empty())
        continue;
      LogicalResult result = success();
      ForOp loop;
      SmallVector<Operation *> prelude;
      // A loop that uses a worker's own slot (per-thread storage, below), or a value an
      // earlier part computed from the thread's number, runs as the team's workers, each
      // its static share: its chunks must be the threads.
      bool perWorker = llvm::any_of(part, [&](Operation *op) {
        return op->walk([&](Operation *inner) {
                   auto query = dyn_cast<RuntimeQueryOp>(inner);
                   bool uses = query && query.getQuery() == RuntimeQueryKind::current_worker;
                   for (Value operand : inner->getOperands())
                     uses |= fromThreadNumber(operand, body);
                   return uses ? WalkResult::interrupt() : WalkResult::advance();
                 }).wasInterrupted();
      });
      if (!perWorker && isLoopPart(effectful, loop, prelude))
        result = lowerLoopPart(builder, parallel, loop, prelude, placement);
      else
        result = lowerWorkerPart(builder, parallel, part, placement);
      if (failed(result))
        return failure();
    }
    // The team's own acquires are replaced by the ones of the new tasks.
    SmallVector<Operation *> acquires;
    for (Value dep : parallel.getDeps())
      if (Operation *def = dep.getDefiningOp())
        acquires.push_back(def);
    parallel.erase();
    for (Operation *acq : acquires)
      if (acq->use_empty())
        acq->erase();
    return success();
  }

  /// A per-thread variable (an alloca of the team's body) used in more than one
  /// barrier-separated part keeps its value from one part to the next, as OpenMP's
  /// threads do (a thread's partial result of an `omp for`, combined in a `critical`
  /// after it): it becomes one slot per worker of a team array, indexed by the worker.
  LogicalResult spreadPerThreadStorage(EdtOp parallel, const Placement &p) {
    Block &body = parallel.getBody().front();
    DenseMap<Operation *, unsigned> partOf;
    unsigned part = 0;
    for (Operation &op : body) {
      if (isa<BarrierOp>(op))
        ++part;
      partOf[&op] = part;
    }
    if (part == 0)
      return success();
    // The front end puts a region's private variables at its top: one that only a later
    // part uses (the counter of a loop after the barrier) moves to that part, which
    // becomes a task of its own and could not reach it where it was.
    for (auto alloca : llvm::make_early_inc_range(body.getOps<memref::AllocaOp>())) {
      if (alloca->getNumOperands() != 0 || alloca->use_empty())
        continue;
      Operation *first = nullptr;
      llvm::SmallDenseSet<unsigned> parts;
      for (Operation *user : alloca->getUsers()) {
        Operation *top = body.findAncestorOpInBlock(*user);
        parts.insert(partOf.lookup(top));
        if (!first || top->isBeforeInBlock(first))
          first = top;
      }
      unsigned only = *parts.begin();
      if (parts.size() != 1 || only == partOf.lookup(alloca))
        continue;
      alloca->moveBefore(first);
      partOf[alloca] = only;
    }
    // A value one part computes from what it read (a per-thread variable at that point) and
    // a later part uses travels the same way, in a slot per worker: the later part could
    // not recompute it. What it can recompute (pure values, the team's queries) it does.
    SmallVector<Value> carried;
    for (Operation &op : body)
      for (Value result : op.getResults()) {
        if (!isa<IntegerType, FloatType, IndexType>(result.getType()) ||
            recomputable(result, body))
          continue;
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              Operation *top = body.findAncestorOpInBlock(*user);
              return top && partOf.lookup(top) != partOf.lookup(&op);
            }))
          carried.push_back(result);
      }
    for (Value value : carried) {
      Operation *def = value.getDefiningOp();
      Location loc = def->getLoc();
      OpBuilder ob(parallel);
      Value slots = memref::AllocOp::create(ob, loc, MemRefType::get({p.workers}, value.getType()));
      ob.setInsertionPointAfter(parallel);
      memref::DeallocOp::create(ob, loc, slots);
      auto workerIndex = [&](OpBuilder &b) {
        Value id = RuntimeQueryOp::create(b, loc, b.getI32Type(), RuntimeQueryKind::current_worker);
        return arith::IndexCastOp::create(b, loc, b.getIndexType(), id).getResult();
      };
      unsigned home = partOf.lookup(def);
      SmallVector<OpOperand *> later;
      for (OpOperand &use : value.getUses())
        if (Operation *top = body.findAncestorOpInBlock(*use.getOwner());
            top && partOf.lookup(top) != home)
          later.push_back(&use);
      OpBuilder sb(def->getContext());
      sb.setInsertionPointAfter(def);
      memref::StoreOp::create(sb, loc, value, slots, ValueRange{workerIndex(sb)});
      for (OpOperand *use : later) {
        OpBuilder ub(use->getOwner());
        use->set(memref::LoadOp::create(ub, loc, slots, ValueRange{workerIndex(ub)}));
      }
      CARTS_DEBUG("for-lowering", def) << "a per-thread value used after a barrier of its "
                                          "parallel region -> a slot per worker\n";
    }
    SmallVector<memref::AllocaOp> spread;
    for (auto alloca : body.getOps<memref::AllocaOp>()) {
      if (alloca.getType().getRank() != 0)
        continue;
      llvm::SmallDenseSet<unsigned> parts;
      for (Operation *user : alloca->getUsers())
        parts.insert(partOf.lookup(body.findAncestorOpInBlock(*user)));
      if (parts.size() > 1)
        spread.push_back(alloca);
    }
    for (memref::AllocaOp alloca : spread) {
      for (Operation *user : alloca->getUsers()) {
        auto store = dyn_cast<memref::StoreOp>(user);
        if (!isa<memref::LoadOp>(user) && !(store && store.getMemRef() == alloca))
          return user->emitError("a per-thread variable used across a barrier of its parallel "
                                 "region may only be loaded and stored");
      }
      Location loc = alloca.getLoc();
      OpBuilder ob(parallel);
      auto type = MemRefType::get({p.workers}, alloca.getType().getElementType());
      Value slots = memref::AllocOp::create(ob, loc, type);
      ob.setInsertionPointAfter(parallel);
      memref::DeallocOp::create(ob, loc, slots);
      for (Operation *user : llvm::make_early_inc_range(alloca->getUsers())) {
        OpBuilder ub(user);
        Value id = RuntimeQueryOp::create(ub, user->getLoc(), ub.getI32Type(),
                                          RuntimeQueryKind::current_worker);
        Value worker = arith::IndexCastOp::create(ub, user->getLoc(), ub.getIndexType(), id);
        if (auto load = dyn_cast<memref::LoadOp>(user)) {
          load.getResult().replaceAllUsesWith(
              memref::LoadOp::create(ub, user->getLoc(), slots, ValueRange{worker}).getResult());
        } else {
          auto store = cast<memref::StoreOp>(user);
          memref::StoreOp::create(ub, user->getLoc(), store.getValue(), slots, ValueRange{worker});
        }
        user->erase();
      }
      CARTS_DEBUG("for-lowering", alloca)
          << "per-thread " << alloca.getType() << " used across barriers -> a slot per worker ("
          << type << "), its parts run one task per worker\n";
      alloca.erase();
    }
    return success();
  }

  /// A part is one work-sharing loop, possibly after per-thread setup: private
  /// allocas and the copy-in of firstprivate values (stores into those allocas).
  /// Each chunk task redoes the setup, which is what a private copy means.
  static bool isLoopPart(ArrayRef<Operation *> effectful, ForOp &loop,
                         SmallVector<Operation *> &prelude) {
    if (effectful.empty() || !isa<ForOp>(effectful.back()))
      return false;
    loop = cast<ForOp>(effectful.back());
    llvm::SmallPtrSet<Value, 4> privates;
    for (Operation *op : effectful.drop_back()) {
      if (auto alloca = dyn_cast<memref::AllocaOp>(op)) {
        privates.insert(alloca.getResult());
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        if (!privates.contains(store.getMemRef()))
          return false;
      } else if (!isa<memref::LoadOp>(op)) {
        return false;
      }
      prelude.push_back(op);
    }
    return true;
  }

  /// Whether a later part can compute `value` again: it is defined outside the team's body
  /// (or is one of its views), or it is a query of the team, or a pure op of such values.
  static bool recomputable(Value value, Block &teamBody) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != &teamBody) // the team's views are the task's
      return true;
    if (isa<RuntimeQueryOp>(def))
      return true;
    return isPureLeafOp(def) && llvm::all_of(def->getOperands(), [&](Value operand) {
             return recomputable(operand, teamBody);
           });
  }

  /// Whether `value`, an operand in a part, is computed in the team's body from the
  /// thread's number (`omp_get_thread_num()` of an earlier part, recomputed in this one).
  static bool fromThreadNumber(Value value, Block &teamBody) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != &teamBody)
      return false;
    if (auto query = dyn_cast<RuntimeQueryOp>(def))
      return query.getQuery() == RuntimeQueryKind::current_worker;
    if (!isPureLeafOp(def))
      return false;
    return llvm::any_of(def->getOperands(),
                        [&](Value operand) { return fromThreadNumber(operand, teamBody); });
  }

  /// Whether `def` loads a variable from outside the team that nothing in the team writes
  /// (a global's value, `n` of `for (i = 0; i < n; i++)`): the same value wherever the
  /// team reads it again. A global counts as written where any of its references is
  /// stored to or passed on.
  static bool rereadable(Operation *def, EdtOp parallel) {
    auto load = dyn_cast<memref::LoadOp>(def);
    if (!load || parallel.getBody().isAncestor(load.getMemRef().getParentRegion()))
      return false;
    Value var = load.getMemRef();
    auto global = var.getDefiningOp<memref::GetGlobalOp>();
    auto same = [&](Value other) {
      if (other == var)
        return true;
      auto ref = other.getDefiningOp<memref::GetGlobalOp>();
      return global && ref && ref.getName() == global.getName();
    };
    WalkResult written = parallel.getBody().walk([&](Operation *op) {
      if (isa<memref::LoadOp>(op))
        return WalkResult::advance();
      for (Value operand : op->getOperands())
        if (same(operand))
          return WalkResult::interrupt();
      if (auto ref = dyn_cast<memref::GetGlobalOp>(op); ref && global &&
                                                         ref.getName() == global.getName())
        for (Operation *user : ref->getUsers())
          if (!isa<memref::LoadOp>(user))
            return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return !written.wasInterrupted();
  }

  /// Maps a value used by a part to the new task's world: views of the team
  /// become the task's views, pure values of the team's body are recomputed, and so
  /// are the team's queries (a worker part answers them for its own worker).
  LogicalResult materialize(Value value, EdtOp parallel, IRMapping &mapping, OpBuilder &b,
                            Operation *user) {
    if (mapping.contains(value))
      return success();
    if (!parallel.getBody().isAncestor(value.getParentRegion()))
      return success(); // defined outside the team: captured as is
    Operation *def = value.getDefiningOp();
    if (!def || !(isPureLeafOp(def) || isa<RuntimeQueryOp>(def) || rereadable(def, parallel)))
      return user->emitError("value defined in another barrier-separated part of the parallel "
                             "region cannot be recomputed here");
    for (Value operand : def->getOperands())
      if (failed(materialize(operand, parallel, mapping, b, user)))
        return failure();
    b.clone(*def, mapping);
    return success();
  }

  /// Clones `ops` (with everything they use from the team) at `b`.
  LogicalResult cloneInto(ArrayRef<Operation *> ops, EdtOp parallel, IRMapping &mapping,
                          OpBuilder &b) {
    for (Operation *op : ops) {
      WalkResult walk = op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (!op->isAncestor(operand.getParentRegion()->getParentOp()) &&
              failed(materialize(operand, parallel, mapping, b, inner)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return failure();
      b.clone(*op, mapping);
    }
    return success();
  }

  /// The team views `value` reaches, through the pure ops computing it.
  void collectViews(Value value, Block &teamBody, llvm::SetVector<unsigned> &views) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &teamBody)
        views.insert(arg.getArgNumber());
      return;
    }
    Operation *def = value.getDefiningOp();
    if (def && def->getBlock() == &teamBody && isPureLeafOp(def))
      for (Value operand : def->getOperands())
        collectViews(operand, teamBody, views);
  }

  /// New acquires (before `b`'s point) for the team views a part uses, and
  /// the task taking them; the task's views replace the team's in `mapping`.
  EdtOp createTask(OpBuilder &b, Location loc, EdtOp parallel, ArrayRef<Operation *> ops,
                   Value route, const Placement &placement, bool sharedWrites,
                   IRMapping &mapping, ArrayRef<Value> privatized = {}) {
    Block &teamBody = parallel.getBody().front();
    llvm::SetVector<unsigned> used;
    for (Operation *op : ops)
      op->walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (!llvm::is_contained(privatized, operand))
            collectViews(operand, teamBody, used);
      });
    SmallVector<Value> deps;
    for (unsigned index : used) {
      auto teamAcq = parallel.getDeps()[index].getDefiningOp<DbAcquireOp>();
      ArtsMode mode = teamAcq.getMode();
      if (sharedWrites && mode != ArtsMode::in)
        mode = ArtsMode::concurrent;
      auto acq = DbAcquireOp::create(b, loc, teamAcq.getGuids().getType(), teamAcq.getPtrs().getType(),
                                     ArtsModeAttr::get(b.getContext(), mode), teamAcq.getSourceGuids(),
                                     teamAcq.getSourcePtrs(), teamAcq.getIndices(), teamAcq.getOffsets(),
                                     teamAcq.getSizes(), nullptr, nullptr, nullptr);
      deps.push_back(acq.getPtrs());
    }
    auto task = EdtOp::create(b, loc, EdtTypeAttr::get(b.getContext(), EdtType::task),
                              EdtConcurrencyAttr::get(b.getContext(), placement.concurrency), route,
                              deps, nullptr, nullptr, nullptr);
    // The team size the task's chunk was cut for: partitioning sizes blocks by it.
    artsDialect(task)->getTeamWorkersAttrHelper().setAttr(
        task, b.getI64IntegerAttr(placement.workers));
    Block *block = b.createBlock(&task.getBody());
    for (auto [index, dep] : llvm::zip(used, deps))
      mapping.map(teamBody.getArgument(index), block->addArgument(dep.getType(), loc));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(block);
    YieldOp::create(b, loc);
    b.setInsertionPoint(block->getTerminator());
    for (BlockArgument view : block->getArguments())
      DbReleaseOp::create(b, loc, view);
    return task;
  }

  //===--------------------------------------------------------------------===//
  // One work-sharing loop: a task per chunk
  //===--------------------------------------------------------------------===//

  LogicalResult lowerLoopPart(OpBuilder &b, EdtOp parallel, ForOp loop,
                              ArrayRef<Operation *> prelude, const Placement &p) {
    Location loc = loop.getLoc();
    // Loop bounds may be computed inside the team: recompute them here.
    IRMapping outer;
    for (Value v : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (failed(materialize(v, parallel, outer, b, loop)))
        return failure();
    if (loop.getChunk() && failed(materialize(loop.getChunk(), parallel, outer, b, loop)))
      return failure();
    Value lb = outer.lookupOrDefault(loop.getLowerBound());
    Value ub = outer.lookupOrDefault(loop.getUpperBound());
    Value step = outer.lookupOrDefault(loop.getStep());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value trips = buildTripCount(b, loc, lb, ub, step);

    // collapse(2) on one node: the chunks cut the product of the two loops' iterations
    // (OpenMP shares the collapsed space), not the outer loop alone, whose few rows would
    // leave workers idle. Iteration k is (k / inner trips, k mod inner trips).
    scf::ForOp collapsed = collapsedInner(loop);
    Value outerLb = lb, outerStep = step, innerLb, innerStep, innerTrips;
    // collapse(2) chunked along the inner loop (`arts.chunk_inner`): each chunk runs the
    // whole outer loop over its inner rows.
    bool interchanged = false;
    Value nestUb = ub;
    int64_t iterationOps = 0;
    if (collapsed && p.nodes > 1 &&
        artsDialect(loop)->getChunkInnerAttrHelper().isAttrPresent(loop) && !loop.getChunk() &&
        loop.getReductionAccs().empty()) {
      for (Value v : {collapsed.getLowerBound(), collapsed.getUpperBound(), collapsed.getStep()})
        if (failed(materialize(v, parallel, outer, b, loop)))
          return failure();
      iterationOps = static_cast<int64_t>(std::min<uint64_t>(
          llvm::SaturatingMultiply<uint64_t>(
              regionWeight(collapsed.getRegion()),
              std::max<int64_t>(constantTripCount(lb, ub, step).value_or(64), 0)),
          uint64_t(1) << 40));
      lb = outer.lookupOrDefault(collapsed.getLowerBound());
      ub = outer.lookupOrDefault(collapsed.getUpperBound());
      step = outer.lookupOrDefault(collapsed.getStep());
      trips = buildTripCount(b, loc, lb, ub, step);
      interchanged = true;
      CARTS_DEBUG("for-lowering", loop) << "arts.for collapse(2): chunks of the inner loop's "
                                           "iterations, each running the whole outer loop\n";
    } else if (collapsed && p.nodes == 1 && !loop.getChunk() &&
               loop.getReductionAccs().empty()) {
      for (Value v : {collapsed.getLowerBound(), collapsed.getUpperBound(), collapsed.getStep()})
        if (failed(materialize(v, parallel, outer, b, loop)))
          return failure();
      innerLb = outer.lookupOrDefault(collapsed.getLowerBound());
      innerStep = outer.lookupOrDefault(collapsed.getStep());
      innerTrips = buildTripCount(b, loc, innerLb, outer.lookupOrDefault(collapsed.getUpperBound()),
                                  innerStep);
      trips = arith::MulIOp::create(b, loc, trips, innerTrips);
      lb = zero;
      ub = trips;
      step = one;
      CARTS_DEBUG("for-lowering", loop) << "arts.for collapse(2): chunks over both loops' "
                                           "iterations (outer trips x inner trips)\n";
    } else {
      collapsed = nullptr;
    }

    // Chunk size: the rule of policy/Chunking.h, applied.
    ScheduleKind schedule = loop.getSchedule().value_or(ScheduleKind::static_);
    // Over several nodes, a loop from a constant first row lb > 0 (a stencil's `1 .. n - 1`)
    // is cut as the rows 0 .. lb + ub would be, each chunk the loop's rows within its share:
    // its chunks then line up with the blocks db-partitioning cuts the arrays in, and no
    // chunk writes a row of its neighbour's block, which would cross nodes every sweep.
    std::optional<int64_t> firstRow = evaluateConstant(lb), unitStep = evaluateConstant(step);
    bool aligned = p.nodes > 1 && !collapsed && !interchanged && !loop.getChunk() &&
                   (schedule == ScheduleKind::static_ || schedule == ScheduleKind::auto_) &&
                   firstRow && *firstRow > 0 && unitStep && *unitStep == 1;
    if (aligned) {
      trips = arith::MaxSIOp::create(b, loc, arith::AddIOp::create(b, loc, lb, ub), zero);
      CARTS_DEBUG("for-lowering", loop)
          << "arts.for over several nodes from row " << *firstRow
          << ": chunks are its rows within the shares of rows 0 .. lb + ub, as the arrays' "
             "blocks are\n";
    }
    std::optional<int64_t> knownTrips = evaluateConstant(trips);
    if (!interchanged)
      iterationOps = regionWeight(collapsed ? collapsed.getRegion() : loop.getBody());
    ChunkDecision chunking = decideChunking(
        loop.getChunk() != nullptr, schedule, p.workers, p.nodes, iterationOps, minChunkOps,
        balanceOps, knownTrips,
        collapsed ? 0 : rowBytesAt(loop.getBody(), loop.getInductionVar()));
    Value chunkSize = ceilDivIndex(b, loc, trips,
                                   arith::ConstantIndexOp::create(b, loc, chunking.divisor));
    if (chunking.rule == ChunkDecision::Rule::Requested)
      chunkSize = arith::MaxSIOp::create(b, loc, outer.lookupOrDefault(loop.getChunk()), chunkSize);
    int64_t minIterations = chunking.minIterations;
    if (minIterations > 1) {
      chunkSize = arith::MaxSIOp::create(b, loc, chunkSize,
                                         arith::ConstantIndexOp::create(b, loc, minIterations));
      // The floor leaves a short last chunk (288 trips at 41 a chunk: seven of 41 and one of
      // 1, and the epoch lasts as long as a chunk of 41): as many chunks, evened out.
      Value count = ceilDivIndex(b, loc, trips, chunkSize);
      chunkSize = ceilDivIndex(b, loc, trips, arith::MaxSIOp::create(b, loc, count, one));
    }
    const std::string &how = chunking.reason;
    chunkSize = arith::MaxSIOp::create(b, loc, chunkSize, one);
    Value chunks = ceilDivIndex(b, loc, trips, chunkSize);
    // Over several nodes a stencil's share is three chunks: its first h rows, the rows
    // between and its last h rows (h the rows it reads beyond its own), the blocks
    // db-partitioning cuts its tables in. The rows between need nothing from another node:
    // they run while the neighbours' edges travel, and the edges go out as soon as they are
    // computed.
    int64_t halo = 0, shareRows = 0;
    if (p.nodes > 1 && !collapsed && !interchanged && !loop.getChunk() &&
        loop.getReductionAccs().empty() && unitStep && *unitStep == 1 &&
        (schedule == ScheduleKind::static_ || schedule == ScheduleKind::auto_) &&
        evaluateConstant(chunks) == p.workers && (halo = stencilHalo(loop)) > 0)
      shareRows = evaluateConstant(chunkSize).value_or(0);
    bool parts = shareRows > 2 * halo && halo > 0;
    if (parts) {
      chunks = arith::MulIOp::create(b, loc, chunks, arith::ConstantIndexOp::create(b, loc, 3));
      CARTS_DEBUG("for-lowering", loop)
          << "arts.for over several nodes reads " << halo
          << " rows beyond its own: each share of " << shareRows
          << " rows is three chunks, its first and last " << halo
          << " rows and the rows between, which run while the edges travel\n";
    }

    CARTS_DEBUG("for-lowering", loop)
        << "arts.for -> one task per chunk: chunk=" << how << " workers=" << p.workers
        << " (" << p.workersPerNode << " per node x " << p.nodes << " nodes) "
        << describeRoute(p.nodes, p.workersPerNode, p.nodes) << ", worker floor(b / ceil(chunks / " << p.nodes * p.workersPerNode << ")) / " << p.nodes
        << " "
        << stringifyEdtConcurrency(p.concurrency)
        << " reductions=" << loop.getReductionAccs().size() << "\n";

    // Reductions: one partial per chunk, in a datablock of their own.
    // Over several nodes, a partial per node besides: only those leave their nodes.
    NodeSplit split{p.nodes, p.workersPerNode};
    SmallVector<Reduction> reductions;
    if (failed(planReductions(b, loc, loop, parallel, chunks, reductions, split)))
      return failure();

    // The distance between chunk starts, where chunks are pieces of the loop's own range.
    Value stride = parts || aligned ? Value() : arith::MulIOp::create(b, loc, chunkSize, step);
    auto [epoch, chunkLoop] = createLaunchLoop(b, loc, zero, chunks, one);
    // A chunk's work, when its size is known: arts-launch-fanout leaves the launches of heavy
    // tasks to their creator.
    if (std::optional<int64_t> size = evaluateConstant(chunkSize))
      artsDialect(chunkLoop)->getChunkOpsAttrHelper().setAttr(
          chunkLoop, b.getI64IntegerAttr(*size * iterationOps));
    b.setInsertionPoint(chunkLoop.getBody()->getTerminator());
    Value chunk = chunkLoop.getInductionVar();
    // The chunk's rows [lo, hi): a part of its share, its rows within its share, or the
    // stride-th piece of the loop's.
    Value lo, hi;
    if (parts) {
      auto constant = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); };
      Value share = arith::DivUIOp::create(b, loc, chunk, constant(3));
      Value part = arith::RemUIOp::create(b, loc, chunk, constant(3));
      Value base = arith::MulIOp::create(b, loc, share, chunkSize);
      if (!aligned)
        base = arith::AddIOp::create(b, loc, base, lb);
      Value head = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part, constant(0));
      Value middle = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, part, constant(1));
      Value from = arith::SelectOp::create(
          b, loc, head, constant(0),
          arith::SelectOp::create(b, loc, middle, constant(halo), constant(shareRows - halo)));
      Value to = arith::SelectOp::create(
          b, loc, head, constant(halo),
          arith::SelectOp::create(b, loc, middle, constant(shareRows - halo),
                                  constant(shareRows)));
      lo = arith::MaxSIOp::create(b, loc, arith::AddIOp::create(b, loc, base, from), lb);
      hi = arith::MinSIOp::create(b, loc, arith::AddIOp::create(b, loc, base, to), ub);
    } else if (aligned) {
      Value start = arith::MulIOp::create(b, loc, chunk, chunkSize);
      lo = arith::MaxSIOp::create(b, loc, start, lb);
      hi = arith::MinSIOp::create(b, loc, arith::AddIOp::create(b, loc, start, chunkSize), ub);
    } else {
      lo = arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, chunk, stride));
      hi = arith::MinSIOp::create(b, loc, arith::AddIOp::create(b, loc, lo, stride), ub);
    }
    Value route = buildTaskRoute(b, loc, chunk, chunks, p.nodes, p.workersPerNode, p.runNodes);

    IRMapping mapping;
    SmallVector<Operation *> bodyOps(prelude);
    Block &iteration = collapsed ? *collapsed.getBody() : loop.getBody().front();
    for (Operation &op : iteration.without_terminator())
      bodyOps.push_back(&op);
    SmallVector<Value> privatized;
    for (Reduction &r : reductions)
      privatized.push_back(r.teamAcc);
    EdtOp task = createTask(b, loc, parallel, bodyOps, route, p, /*sharedWrites=*/false, mapping,
                            privatized);
    Block &taskBody = task.getBody().front();
    SmallVector<Value> partialViews = acquirePartials(task, reductions, chunk, chunks, split);

    OpBuilder tb = OpBuilder::atBlockBegin(&taskBody);
    // The accumulators as the body sees them become private copies.
    SmallVector<Value> privates = privateAccumulators(tb, loc, reductions, mapping);
    // Per-thread setup first, once per chunk.
    if (failed(cloneInto(prelude, parallel, mapping, tb)))
      return failure();
    auto inner = scf::ForOp::create(tb, loc, lo, hi, step);
    artsDialect(inner)->getChunkLoopAttrHelper().setAttr(inner, tb.getUnitAttr());
    // Where the chunks start and how many rows they cover, when known: db-partitioning
    // gives a chunk its own blocks only when each chunk is a whole number of blocks.
    if (std::optional<int64_t> first = aligned ? 0 : evaluateConstant(lb))
      artsDialect(inner)->getChunkOriginAttrHelper().setAttr(inner, tb.getI64IntegerAttr(*first));
    if (knownTrips)
      artsDialect(inner)->getChunkTripsAttrHelper().setAttr(inner,
                                                          tb.getI64IntegerAttr(*knownTrips));
    if (std::optional<int64_t> size = evaluateConstant(chunkSize);
        size && (!collapsed || interchanged) && !parts)
      artsDialect(inner)->getChunkRowsAttrHelper().setAttr(inner, tb.getI64IntegerAttr(*size));
    if (parts)
      artsDialect(inner)->getChunkEdgesAttrHelper().setAttr(inner, tb.getI64IntegerAttr(halo));
    if (!parts && !loop.getChunk() &&
        (schedule == ScheduleKind::static_ || schedule == ScheduleKind::auto_) &&
        (minIterations <= 1 ||
         (knownTrips && (*knownTrips + p.workers - 1) / p.workers >= minIterations)))
      artsDialect(inner)->getChunkStaticShareAttrHelper().setAttr(inner, tb.getUnitAttr());
    // A share cut in several chunks: db-partitioning makes each chunk a block of its own.
    if (chunking.chunksPerWorker > 1)
      artsDialect(inner)->getChunksPerWorkerAttrHelper().setAttr(
          inner, tb.getI64IntegerAttr(chunking.chunksPerWorker));
    mapping.map(loop.getInductionVar(), inner.getInductionVar());
    OpBuilder ib = OpBuilder::atBlockBegin(inner.getBody());
    ib.setInsertionPoint(inner.getBody()->getTerminator());
    if (interchanged) {
      auto nest = scf::ForOp::create(ib, loc, outerLb, nestUb, outerStep);
      mapping.map(loop.getInductionVar(), nest.getInductionVar());
      mapping.map(collapsed.getInductionVar(), inner.getInductionVar());
      ib.setInsertionPoint(nest.getBody()->getTerminator());
    } else if (collapsed) {
      Value k = inner.getInductionVar();
      Value row = arith::DivUIOp::create(ib, loc, k, innerTrips);
      Value col = arith::RemUIOp::create(ib, loc, k, innerTrips);
      mapping.map(loop.getInductionVar(),
                  arith::AddIOp::create(ib, loc, outerLb,
                                        arith::MulIOp::create(ib, loc, row, outerStep)));
      mapping.map(collapsed.getInductionVar(),
                  arith::AddIOp::create(ib, loc, innerLb,
                                        arith::MulIOp::create(ib, loc, col, innerStep)));
    }
    if (failed(cloneInto(ArrayRef<Operation *>(bodyOps).drop_front(prelude.size()), parallel,
                         mapping, ib)))
      return failure();
    // omp_get_num_threads() in a chunk is the team's size, as in the worker parts.
    taskBody.walk([&](RuntimeQueryOp query) {
      if (query.getQuery() != RuntimeQueryKind::total_workers)
        return;
      OpBuilder qb(query);
      query.getResult().replaceAllUsesWith(
          arith::ConstantIntOp::create(qb, query.getLoc(), qb.getI32Type(), p.workers));
      query.erase();
    });
    // Each chunk leaves its partial in its slot.
    tb.setInsertionPointAfter(inner);
    storePartials(tb, loc, reductions, privates, partialViews, chunk);
    b.setInsertionPointAfter(chunkLoop);
    combineOnNodes(b, loc, reductions, chunks, split);
    b.setInsertionPointAfter(epoch);
    combinePartials(b, loc, reductions,
                    split.nodes > 1 ? arith::ConstantIndexOp::create(b, loc, split.nodes) : chunks);
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Anything else: a task per worker
  //===--------------------------------------------------------------------===//

  LogicalResult lowerWorkerPart(OpBuilder &b, EdtOp parallel, ArrayRef<Operation *> part,
                                const Placement &p) {
    Location loc = part.front()->getLoc();
    for (Operation *op : part) {
      WalkResult bad = op->walk([&](Operation *inner) {
        if (isa<BarrierOp>(inner)) {
          inner->emitError("barrier nested inside control flow of a parallel region is not supported");
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (bad.wasInterrupted())
        return failure();
    }
    CARTS_DEBUG("for-lowering", part.front())
        << "parallel part -> one task per worker: workers=" << p.workers << " route(w) = floor(w / "
        << "ceil(workers / " << p.nodes * p.workersPerNode << ")) % " << p.nodes
        << " (writes shared as concurrent)\n";
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value workers = arith::ConstantIndexOp::create(b, loc, p.workers);
    // Reduction loops: a partial per worker, in walk order of the loops.
    SmallVector<Reduction> reductions;
    SmallVector<size_t> reductionCounts;
    for (Operation *op : part) {
      WalkResult planned = op->walk([&](ForOp loop) {
        if (loop.getReductionAccs().empty())
          return WalkResult::advance();
        size_t before = reductions.size();
        if (failed(planReductions(b, loc, loop, parallel, workers, reductions)))
          return WalkResult::interrupt();
        reductionCounts.push_back(reductions.size() - before);
        return WalkResult::advance();
      });
      if (planned.wasInterrupted())
        return failure();
    }
    auto [epoch, workerLoop] = createLaunchLoop(b, loc, zero, workers, one);
    OpBuilder wb = OpBuilder::atBlockBegin(workerLoop.getBody());
    wb.setInsertionPoint(workerLoop.getBody()->getTerminator());
    Value worker = workerLoop.getInductionVar();
    Value route = buildTaskRoute(wb, loc, worker, workers, p.nodes, p.workersPerNode, p.runNodes);
    IRMapping mapping;
    EdtOp task = createTask(wb, loc, parallel, part, route, p, /*sharedWrites=*/true, mapping);
    SmallVector<Value> partialViews = acquirePartials(task, reductions);
    OpBuilder tb = OpBuilder::atBlockBegin(&task.getBody().front());
    tb.setInsertionPoint(task.getBody().front().getTerminator());
    // Release ops sit at the end: clone the part before them.
    Operation *firstRelease = nullptr;
    for (Operation &op : task.getBody().front())
      if (isa<DbReleaseOp>(op)) {
        firstRelease = &op;
        break;
      }
    if (firstRelease)
      tb.setInsertionPoint(firstRelease);
    if (failed(cloneInto(part, parallel, mapping, tb)))
      return failure();
    // Worker identity, static shares of loops, single parts on worker 0.
    SmallVector<Operation *> toRewrite;
    size_t reductionLoop = 0, firstReduction = 0;
    task.getBody().walk([&](Operation *op) {
      if (isa<RuntimeQueryOp, ForOp>(op) ||
          (isa<EdtOp>(op) && op != task.getOperation()))
        toRewrite.push_back(op);
    });
    for (Operation *op : toRewrite) {
      OpBuilder rb(op);
      Location l = op->getLoc();
      if (auto query = dyn_cast<RuntimeQueryOp>(op)) {
        Value value;
        switch (query.getQuery()) {
        case RuntimeQueryKind::current_worker:
          value = arith::IndexCastOp::create(rb, l, rb.getI32Type(), worker);
          break;
        case RuntimeQueryKind::total_workers:
          value = arith::ConstantIntOp::create(rb, l, rb.getI32Type(), p.workers);
          break;
        default:
          continue; // node queries stay runtime queries
        }
        query.getResult().replaceAllUsesWith(value);
        query.erase();
      } else if (auto loop = dyn_cast<ForOp>(op)) {
        Value trips = buildTripCount(rb, l, loop.getLowerBound(), loop.getUpperBound(),
                                     loop.getStep());
        Value share = ceilDivIndex(rb, l, trips, arith::ConstantIndexOp::create(rb, l, p.workers));
        Value stride = arith::MulIOp::create(rb, l, share, loop.getStep());
        Value lo = arith::AddIOp::create(rb, l, loop.getLowerBound(), arith::MulIOp::create(rb, l, worker, stride));
        Value hi = arith::MinSIOp::create(rb, l, arith::AddIOp::create(rb, l, lo, stride), loop.getUpperBound());
        // Reductions accumulate privately; the worker's partial goes to its slot.
        IRMapping m;
        ArrayRef<Reduction> mine;
        ArrayRef<Value> myViews;
        SmallVector<Value> privates;
        if (!loop.getReductionAccs().empty()) {
          size_t count = reductionCounts[reductionLoop++];
          mine = ArrayRef<Reduction>(reductions).slice(firstReduction, count);
          myViews = ArrayRef<Value>(partialViews).slice(firstReduction, count);
          firstReduction += count;
          privates = privateAccumulators(rb, l, mine, m, loop.getReductionAccs());
        }
        auto share_loop = scf::ForOp::create(rb, l, lo, hi, loop.getStep());
        m.map(loop.getInductionVar(), share_loop.getInductionVar());
        OpBuilder sb = OpBuilder::atBlockBegin(share_loop.getBody());
        sb.setInsertionPoint(share_loop.getBody()->getTerminator());
        for (Operation &inner : loop.getBody().front().without_terminator())
          sb.clone(inner, m);
        rb.setInsertionPointAfter(share_loop);
        storePartials(rb, l, mine, privates, myViews, worker);
        loop.erase();
      } else if (auto single = dyn_cast<EdtOp>(op)) {
        Value isFirst = arith::CmpIOp::create(rb, l, arith::CmpIPredicate::eq, worker,
                                              arith::ConstantIndexOp::create(rb, l, 0));
        auto ifOp = scf::IfOp::create(rb, l, isFirst, /*withElseRegion=*/false);
        OpBuilder ib = OpBuilder::atBlockBegin(ifOp.thenBlock());
        ib.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        IRMapping m;
        for (Operation &inner : single.getBody().front().without_terminator())
          ib.clone(inner, m);
        single.erase();
      }
    }
    b.setInsertionPointAfter(epoch);
    combinePartials(b, loc, reductions, workers);
    return success();
  }
};
} // namespace
