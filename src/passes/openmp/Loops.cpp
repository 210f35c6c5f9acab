//===- Loops.cpp - work-sharing loops become arts.for ---------------------===//
//
// omp.wsloop becomes arts.for: its bounds, schedule, reductions (declared, or
// atomic updates that are a scalar's only uses in the team) and private copies,
// with the thread-private storage only the loop uses made per iteration
// (threadPrivateStorageOf). Before that, a parallel region that is one
// sequential loop holding work-sharing loops is turned inside out.
//
//===----------------------------------------------------------------------===//

#include "passes/openmp/Converter.h"
#include "llvm/ADT/SetVector.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::arts;

namespace mlir::arts::openmp {

void Converter::convertWsloop(omp::WsloopOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  auto nest = cast<omp::LoopNestOp>(op.getRegion().front().front());
  SmallVector<memref::AllocaOp> threadPrivate = threadPrivateStorageOf(op);
  rewriter.setInsertionPoint(op);
  if (orphanedLoops.contains(op)) {
    CARTS_DEBUG(kChannel, op) << "orphaned omp.wsloop -> its own arts.edt <parallel>\n";
    createTask(loc, EdtType::parallel, {});
  }

  // Bounds become index values computed before the loop; `inclusive` adds one.
  unsigned numLoops = nest.getIVs().size();
  Type ivType = nest.getIVs().front().getType();
  SmallVector<Value> lbs, ubs, steps;
  for (auto [lb, ub, step] :
       llvm::zip_equal(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(), nest.getLoopSteps())) {
    lbs.push_back(toIndex(loc, lb));
    Value upper = toIndex(loc, ub);
    if (nest.getLoopInclusive())
      upper = arith::AddIOp::create(rewriter, loc, upper,
                                    arith::ConstantIndexOp::create(rewriter, loc, 1));
    ubs.push_back(upper);
    steps.push_back(toIndex(loc, step));
  }

  omp::ClauseScheduleKind ompSchedule =
      op.getScheduleKind().value_or(omp::ClauseScheduleKind::Static);
  auto schedule = ScheduleKindAttr::get(ctx, *scheduleOf(ompSchedule));
  Value chunk = op.getScheduleChunk() ? toIndex(loc, op.getScheduleChunk()) : Value();

  SmallVector<Attribute> kinds;
  SmallVector<Value> accs(op.getReductionVars());
  if (std::optional<ArrayAttr> syms = op.getReductionSyms()) {
    for (auto [acc, sym] : llvm::zip_equal(op.getReductionVars(), *syms)) {
      auto decl = SymbolTable::lookupNearestSymbolFrom<omp::DeclareReductionOp>(
          op, cast<SymbolRefAttr>(sym));
      ReductionKind kind = *matchReduction(decl).kind;
      kinds.push_back(ReductionKindAttr::get(ctx, kind));
      CARTS_DEBUG(kChannel, op) << "reduction " << sym << " -> <" << stringifyReductionKind(kind)
                                << "> on " << acc.getType() << "\n";
    }
  }

  CARTS_DEBUG(kChannel, op) << "omp.wsloop -> arts.for schedule="
                            << stringifyScheduleKind(schedule.getValue())
                            << (chunk ? " chunk" : "") << " nowait=" << op.getNowait()
                            << " reductions=" << kinds.size()
                            << " privates=" << op.getPrivateVars().size() << "\n";
  atomicUpdatesToReductions(op, accs, kinds);
  auto forOp = ForOp::create(rewriter, loc, lbs[0], ubs[0], steps[0], schedule, chunk, accs,
                             kinds.empty() ? ArrayAttr() : rewriter.getArrayAttr(kinds));
  Block *body = rewriter.createBlock(&forOp.getBody(), {}, {rewriter.getIndexType()}, {loc});
  Operation *end = YieldOp::create(rewriter, loc);
  rewriter.setInsertionPoint(end);

  // A collapsed nest keeps its outermost loop as the arts.for and runs the inner ones
  // inside each iteration, marked `arts.collapsed`: for-lowering shares the product of
  // a collapse(2) nest's iterations among the chunks on one node, else the outer loop's.
  SmallVector<Value> ivs{fromIndex(loc, body->getArgument(0), ivType)};
  if (numLoops > 1)
    CARTS_DEBUG(kChannel, nest) << "omp.loop_nest collapse(" << numLoops
                                << "): outermost loop -> arts.for, " << numLoops - 1
                                << " inner loop(s) -> scf.for {arts.collapsed}\n";
  for (unsigned i = 1; i < numLoops; ++i) {
    auto inner = scf::ForOp::create(rewriter, loc, lbs[i], ubs[i], steps[i]);
    artsDialect(inner)->getCollapsedAttrHelper().setAttr(inner, rewriter.getUnitAttr());
    end = inner.getBody()->getTerminator();
    rewriter.setInsertionPoint(end);
    ivs.push_back(fromIndex(loc, inner.getInductionVar(), ivType));
  }

  // Private copies are made per iteration (of the innermost collapsed loop): the arts.for
  // body is what later becomes the per-chunk tasks, so nothing outside it would be
  // task-local. The alloca_scope gives each iteration's stack space back.
  SmallVector<PrivateCopy> privates;
  if (!op.getPrivateVars().empty() || !threadPrivate.empty()) {
    auto scope = memref::AllocaScopeOp::create(rewriter, loc, TypeRange{});
    rewriter.createBlock(&scope.getBodyRegion());
    end = memref::AllocaScopeReturnOp::create(rewriter, loc, ValueRange{});
    rewriter.setInsertionPoint(end);
    for (memref::AllocaOp alloca : threadPrivate) {
      CARTS_DEBUG(kChannel, alloca) << "thread-private memref.alloca " << alloca.getType()
                                    << " used only by the loop at " << locationString(loc)
                                    << " -> per iteration\n";
      rewriter.moveOpBefore(alloca, end);
    }
    privates =
        materializePrivates(op, op.getPrivateVars(), op.getPrivateSyms(), "per iteration");
  }
  Operation *innermostEnd = end;

  // For now the body updates the shared accumulator directly; a later pass
  // gives each worker its own partial value and combines them with the kind
  // recorded on the arts.for.
  auto clauses = cast<omp::BlockArgOpenMPOpInterface>(op.getOperation());
  for (auto [arg, acc] : llvm::zip_equal(clauses.getReductionBlockArgs(), op.getReductionVars()))
    rewriter.replaceAllUsesWith(arg, acc);
  for (auto [arg, copy] : llvm::zip_equal(clauses.getPrivateBlockArgs(), privates))
    rewriter.replaceAllUsesWith(arg, copy.value);
  moveRegionBody(nest.getRegion(), innermostEnd, ivs);
  rewriter.setInsertionPoint(end);
  emitDeallocs(privates);

  if (!op.getNowait()) {
    rewriter.setInsertionPointAfter(forOp);
    BarrierOp::create(rewriter, loc);
  }
  rewriter.eraseOp(op);
}

/// `#pragma omp atomic` updates of a shared scalar that are its only uses in the
/// team (here all inside this loop, all of one kind) make it a reduction of the loop:
/// each chunk then updates a private partial, combined once, instead of every
/// iteration updating shared memory (on several nodes, a copy of it) atomically.
void Converter::atomicUpdatesToReductions(omp::WsloopOp op, SmallVector<Value> &accs,
                                          SmallVector<Attribute> &kinds) {
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *team = op->getParentOfType<omp::ParallelOp>();
  if (!team)
    team = op;
  llvm::MapVector<Value, SmallVector<Operation *>> candidates;
  op.walk([&](Operation *inner) {
    if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(inner))
      candidates[inner->getOperand(isa<memref::AtomicRMWOp>(inner) ? 1 : 0)].push_back(inner);
  });
  for (auto &[acc, updates] : candidates) {
    auto type = dyn_cast<MemRefType>(acc.getType());
    if (!type || type.getRank() != 0 || team->isAncestor(acc.getParentRegion()->getParentOp()) ||
        llvm::is_contained(accs, acc))
      continue;
    std::optional<ReductionKind> kind = kindOfAtomicUpdate(updates.front());
    bool onlyUpdates = llvm::all_of(acc.getUsers(), [&](Operation *user) {
      return !team->isAncestor(user) || llvm::is_contained(updates, user);
    });
    if (!kind || !onlyUpdates ||
        !llvm::all_of(updates, [&](Operation *u) { return kindOfAtomicUpdate(u) == kind; })) {
      CARTS_DEBUG(kChannel, updates.front())
          << "atomic update of " << acc.getType() << " stays atomic ("
          << (!kind ? "its old value is used or it is no reduction operator"
                    : "the team uses it otherwise too")
          << ")\n";
      continue;
    }
    for (Operation *update : updates) {
      rewriter.setInsertionPoint(update);
      Location uloc = update->getLoc();
      Value old = memref::LoadOp::create(rewriter, uloc, acc);
      Value next;
      if (auto rmw = dyn_cast<memref::AtomicRMWOp>(update)) {
        next = arith::getReductionOp(rmw.getKind(), rewriter, uloc, old, rmw.getValue());
      } else {
        auto generic = cast<memref::GenericAtomicRMWOp>(update);
        IRMapping map;
        map.map(generic.getAtomicBody().getArgument(0), old);
        Operation *combining = rewriter.clone(generic.getAtomicBody().front().front(), map);
        next = combining->getResult(0);
      }
      memref::StoreOp::create(rewriter, uloc, next, acc);
      rewriter.eraseOp(update);
    }
    CARTS_DEBUG(kChannel, op) << "atomic update of " << acc.getType() << " (" << updates.size()
                              << " in the loop, its only use in the team) -> reduction <"
                              << stringifyReductionKind(*kind) << ">\n";
    accs.push_back(acc);
    kinds.push_back(ReductionKindAttr::get(op.getContext(), *kind));
  }
}

/// OpenMP thread-private storage, an alloca at the top of the parallel region
/// (where the front end puts the locals of a loop body and private copies),
/// has no ARTS counterpart: the iterations run in per-chunk tasks, not in the
/// workers of the parallel task, and storage shared by those tasks would
/// become a datablock they all write. An alloca that only this loop uses
/// becomes per-iteration storage instead.
SmallVector<memref::AllocaOp> Converter::threadPrivateStorageOf(omp::WsloopOp op) {
  SmallVector<memref::AllocaOp> storage;
  auto edt = dyn_cast<EdtOp>(op->getParentOp());
  if (!edt || edt.getEdtType() != EdtType::parallel)
    return storage;
  for (auto alloca : edt.getBody().front().getOps<memref::AllocaOp>())
    if (!alloca->use_empty() && llvm::all_of(alloca->getUsers(), [&](Operation *user) {
          return op->isProperAncestor(user);
        }))
      storage.push_back(alloca);
  return storage;
}

static bool isUniform(Value v, Region &team);

/// Whether `load` reads a local scalar of the region's threads that holds the same value in
/// each (`int nt = omp_get_num_threads();`): a rank-0 alloca of the region, stored once with
/// a uniform value, where that store comes before the load in the same block or one
/// around it, and otherwise only loaded.
static bool isUniformLocal(memref::LoadOp load, Region &team) {
  auto slot = load.getMemRef().getDefiningOp<memref::AllocaOp>();
  if (!slot || slot.getType().getRank() != 0 || !team.isAncestor(slot->getParentRegion()))
    return false;
  memref::StoreOp only;
  for (Operation *user : slot->getUsers()) {
    if (isa<memref::LoadOp>(user))
      continue;
    auto store = dyn_cast<memref::StoreOp>(user);
    if (!store || only || store.getValueToStore() == slot.getResult())
      return false;
    only = store;
  }
  if (!only)
    return false;
  Operation *ancestor = only->getBlock()->findAncestorOpInBlock(*load);
  return ancestor && only->isBeforeInBlock(ancestor) &&
         isUniform(only.getValueToStore(), team);
}

/// Whether `v` is the same in every thread of the team whose region is `team`: a value
/// from outside it, the index of a loop whose bounds are, or computed from such values by
/// operations without memory effects.
static bool isUniform(Value v, Region &team) {
  if (!team.isAncestor(v.getParentRegion()))
    return true;
  if (auto loop = scf::getForInductionVarOwner(v)) // a loop every thread runs alike
    return isUniform(loop.getLowerBound(), team) && isUniform(loop.getUpperBound(), team) &&
           isUniform(loop.getStep(), team);
  Operation *def = v.getDefiningOp();
  if (auto call = dyn_cast_or_null<func::CallOp>(def))
    return call.getCallee() == "omp_get_num_threads"; // the team's size: one answer
  if (auto load = dyn_cast_or_null<memref::LoadOp>(def))
    return isUniformLocal(load, team);
  if (!def || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) { return isUniform(operand, team); });
}

/// Before `at` and what follows it leave the then-block of `branch`: the values they use
/// that the block computes before `at` move before the branch, when they are computed
/// without memory effects from values available there. False (nothing moved) otherwise.
static bool freeFromBranch(IRRewriter &rewriter, scf::IfOp branch, Operation *at) {
  Block *then = branch.thenBlock();
  SetVector<Operation *> needed;
  SmallVector<Value> work;
  for (Operation &moved : llvm::make_range(at->getIterator(), then->getTerminator()->getIterator()))
    moved.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        work.push_back(v);
    });
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != then || !def->isBeforeInBlock(at) || needed.contains(def))
      continue;
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return false;
    needed.insert(def);
    for (Value v : def->getOperands())
      work.push_back(v);
  }
  SmallVector<Operation *> ordered(needed.begin(), needed.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *def : ordered)
    rewriter.moveOpBefore(def, branch);
  return true;
}

/// In a parallel region, `if (c) { x; S; y }` with `c` the same in every thread and `S` a
/// barrier or a work-sharing loop (which ends in one): `if (c) { x }; S; if (c) { y }`,
/// the loop running no iteration when `c` is false. Every thread reaches the barrier
/// even where `c` is false, which OpenMP allows (they only wait longer), and it is no
/// longer inside control flow, which tasks cannot wait in.
void Converter::hoistUniformBarriers() {
  SmallVector<Operation *> syncs;
  module.walk([&](Operation *op) {
    if (isa<omp::BarrierOp, omp::WsloopOp>(op))
      syncs.push_back(op);
  });
  while (!syncs.empty()) {
    Operation *sync = syncs.pop_back_val();
    auto branch = dyn_cast<scf::IfOp>(sync->getParentOp());
    auto team = sync->getParentOfType<omp::ParallelOp>();
    if (!branch || !team || branch.getNumResults() != 0 || branch.thenBlock() != sync->getBlock() ||
        (branch.elseBlock() && !branch.elseBlock()->without_terminator().empty()) ||
        !isUniform(branch.getCondition(), team.getRegion()))
      continue;
    auto loop = dyn_cast<omp::WsloopOp>(sync);
    auto nest = loop ? dyn_cast<omp::LoopNestOp>(loop.getWrappedLoop()) : omp::LoopNestOp();
    if (loop && !nest)
      continue;
    if (!freeFromBranch(rewriter, branch, sync))
      continue;
    Location loc = branch.getLoc();
    Value cond = branch.getCondition();
    rewriter.setInsertionPointAfter(branch);
    auto after = scf::IfOp::create(rewriter, loc, cond, /*withElseRegion=*/false);
    Block *then = branch.thenBlock();
    Operation *yield = after.thenBlock()->getTerminator();
    for (Operation &inner : llvm::make_early_inc_range(
             llvm::make_range(std::next(sync->getIterator()), then->getTerminator()->getIterator())))
      rewriter.moveOpBefore(&inner, yield);
    rewriter.moveOpBefore(sync, after);
    if (nest) { // no iteration unless c: the first dimension's upper bound is its lower
      rewriter.setInsertionPoint(loop);
      Value lb = nest.getLoopLowerBounds()[0], ub = nest.getLoopUpperBounds()[0];
      Value bound = arith::SelectOp::create(rewriter, loc, cond, ub, lb);
      rewriter.modifyOpInPlace(nest, [&] { nest.getLoopUpperBoundsMutable()[0].assign(bound); });
    }
    CARTS_DEBUG(kChannel, sync) << sync->getName()
                                << " in a branch every thread takes alike -> out of the branch, "
                                   "which splits around it"
                                << (nest ? " (the loop empty when the branch is not taken)" : "")
                                << "\n";
    // the later part may hold further barriers and loops
    after.walk([&](Operation *inner) {
      if (isa<omp::BarrierOp, omp::WsloopOp>(inner))
        syncs.push_back(inner);
    });
  }
}

/// `omp.parallel { pre; for (t ...) { omp for ...; omp for ... }; post }`: the time loop
/// every thread runs holds the loops' barriers, which tasks cannot wait on inside control
/// flow. When what comes before the loop only computes values (from outside, or from the
/// thread's number) and per-thread storage is used only inside the loop's work-sharing
/// loops or only after the loop, the loop goes outside and each iteration gets a parallel
/// region of its own: the same barriers, now between regions. What follows the loop gets
/// a region of its own after it (a barrier more, which OpenMP allows: the threads only
/// wait longer). The values of `pre` that depend on the thread are computed again in
/// each region; the others move before it. Storage the front end marks `arts.scratch` (a
/// reduction's own copy, set where its construct starts) may be used anywhere in the
/// loop: each region has its own. Repeated while a new region is again such a loop.
void Converter::hoistLoopsOutOfParallel() {
  SmallVector<omp::ParallelOp> worklist;
  module.walk([&](omp::ParallelOp op) { worklist.push_back(op); });
  while (!worklist.empty()) {
    omp::ParallelOp op = worklist.pop_back_val();
    if (taskTeams.contains(op) || !op.getPrivateVars().empty() || !op.getReductionVars().empty())
      continue;
    Block &block = op.getRegion().front();
    scf::ForOp loop;
    SmallVector<Operation *> outside, storage, post;
    DenseSet<Operation *> threadDependent;
    bool fits = op.getRegion().hasOneBlock() && block.getNumArguments() == 0;
    // Per-thread set-up before the loop: locals stored there from the thread's number and
    // values from outside (`int lo = tid * n / nt;`), only read afterwards. Each region
    // computes them again, to the same values.
    DenseSet<Operation *> setupSlots;
    auto isSlot = [&](Value v) {
      auto alloca = v.getDefiningOp<memref::AllocaOp>();
      return alloca && alloca->getBlock() == &block && alloca.getType().getRank() == 0;
    };
    for (Operation &inner : block.without_terminator()) {
      if (loop) {
        post.push_back(&inner);
        continue;
      }
      bool fromThread = isTeamQuery(&inner) || llvm::any_of(inner.getOperands(), [&](Value v) {
                          return threadDependent.contains(v.getDefiningOp());
                        });
      auto store = dyn_cast<memref::StoreOp>(inner);
      auto load = dyn_cast<memref::LoadOp>(inner);
      if (auto l = dyn_cast<scf::ForOp>(inner))
        loop = l;
      else if (isa<memref::AllocaOp>(inner))
        storage.push_back(&inner);
      else if (store && isSlot(store.getMemRef()) && store.getValueToStore() != store.getMemRef() &&
               (!store.getValueToStore().getDefiningOp() ||
                !block.findAncestorOpInBlock(*store.getValueToStore().getDefiningOp()) ||
                threadDependent.contains(store.getValueToStore().getDefiningOp()) ||
                llvm::is_contained(outside, store.getValueToStore().getDefiningOp()))) {
        setupSlots.insert(store.getMemRef().getDefiningOp());
        threadDependent.insert(&inner);
      } else if (load && isSlot(load.getMemRef()) &&
                 setupSlots.contains(load.getMemRef().getDefiningOp())) {
        threadDependent.insert(&inner);
      } else if ((isMemoryEffectFree(&inner) && inner.getNumRegions() == 0) || isTeamQuery(&inner)) {
        if (fromThread)
          threadDependent.insert(&inner); // stays at the top of each iteration's region
        else
          outside.push_back(&inner);
      } else {
        fits = false;
      }
    }
    if (!fits || !loop || loop.getNumResults() != 0)
      continue;
    // a set-up local is stored before the loop only, and only loaded and stored otherwise
    for (Operation *slot : setupSlots)
      fits &= llvm::all_of(slot->getUsers(), [&](Operation *user) {
        if (auto store = dyn_cast<memref::StoreOp>(user))
          return store->getBlock() == &block && store->isBeforeInBlock(loop);
        return isa<memref::LoadOp>(user);
      });
    if (!fits)
      continue;
    // The loop's bounds are the same for every thread.
    if (llvm::any_of(loop->getOperands(),
                     [&](Value v) { return threadDependent.contains(v.getDefiningOp()); }))
      continue;
    bool synchronises = false;
    loop.getBody()->walk([&](Operation *inner) {
      synchronises |= isa<omp::WsloopOp, omp::BarrierOp, omp::SingleOp>(inner);
    });
    auto inPost = [&](Operation *user) {
      return llvm::any_of(post, [&](Operation *q) { return q->isAncestor(user); });
    };
    bool storageApart = llvm::all_of(storage, [&](Operation *alloca) {
      if (setupSlots.contains(alloca))
        return true; // computed again in each region
      if (alloca->hasAttr("arts.scratch") && llvm::all_of(alloca->getUsers(), [&](Operation *u) {
            return loop->isAncestor(u);
          }))
        return true; // set before each use inside the loop: storage of each region
      bool inLoops = llvm::all_of(alloca->getUsers(), [&](Operation *user) {
        return user->getParentOfType<omp::WsloopOp>() && loop->isAncestor(user);
      });
      return inLoops || llvm::all_of(alloca->getUsers(), inPost);
    });
    if (!synchronises || !storageApart)
      continue;
    CARTS_DEBUG(kChannel, op) << "omp.parallel whose body is one sequential loop holding its "
                                 "barriers -> the loop outside, a parallel region per "
                                 "iteration"
                              << (post.empty() ? "" : ", one more for what follows it") << "\n";
    if (!post.empty()) {
      // What follows the loop: a copy of the region without the loop, after it.
      rewriter.setInsertionPointAfter(op);
      auto tail = cast<omp::ParallelOp>(rewriter.clone(*op));
      Block &tailBlock = tail.getRegion().front();
      for (Operation &inner : tailBlock)
        if (isa<scf::ForOp>(inner)) {
          rewriter.eraseOp(&inner);
          break;
        }
      for (Operation *inner : llvm::reverse(post))
        rewriter.eraseOp(inner);
      worklist.push_back(tail);
    }
    for (Operation *inner : outside)
      rewriter.moveOpBefore(inner, op);
    rewriter.moveOpBefore(loop, op);
    Block *body = loop.getBody();
    Operation *yield = body->getTerminator();
    rewriter.moveOpBefore(op, &body->front());
    Operation *end = block.getTerminator();
    for (Operation &inner : llvm::make_early_inc_range(*body))
      if (&inner != op.getOperation() && &inner != yield)
        rewriter.moveOpBefore(&inner, end);
    worklist.push_back(op);
  }
}

} // namespace mlir::arts::openmp

namespace mlir::arts::openmp {

void Converter::shadowGlobalReductions() {
  SmallVector<std::pair<Operation *, OpOperand *>> found;
  auto collect = [&](Operation *op, MutableOperandRange vars) {
    for (OpOperand &operand : vars) {
      auto get = viewRoot(operand.get()).getDefiningOp<memref::GetGlobalOp>();
      if (get && operand.get() == get.getResult() && get.getType().getRank() == 0)
        found.push_back({op, &operand});
    }
  };
  module.walk([&](omp::WsloopOp op) { collect(op, op.getReductionVarsMutable()); });
  module.walk([&](omp::ParallelOp op) { collect(op, op.getReductionVarsMutable()); });
  for (auto [op, operand] : found) {
    Value global = operand->get();
    auto get = global.getDefiningOp<memref::GetGlobalOp>();
    if (!get)
      continue; // a second reduction of the same team: already the copy made for the first
    auto type = cast<MemRefType>(global.getType());
    // The copy lives around the outermost construct the reduction belongs to: the team
    // for a loop inside a parallel region, else the loop or region itself.
    Operation *outer = op;
    if (auto team = op->getParentOfType<omp::ParallelOp>())
      outer = team;
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(outer);
    Value address = rewriter.clone(*get)->getResult(0); // the get may be inside the team
    Value shadow = memref::AllocaOp::create(rewriter, loc, type);
    Value initial = memref::LoadOp::create(rewriter, loc, address);
    memref::StoreOp::create(rewriter, loc, initial, shadow);
    rewriter.setInsertionPointAfter(outer);
    Value combined = memref::LoadOp::create(rewriter, loc, shadow);
    memref::StoreOp::create(rewriter, loc, combined, address);
    // Inside the construct every use of the global is the copy's (the program sees the
    // variable's reduced value only after the construct, as OpenMP defines).
    rewriter.replaceUsesWithIf(global, shadow, [&](OpOperand &use) {
      return outer->isAncestor(use.getOwner());
    });
    CARTS_DEBUG(kChannel, op) << "reduction into global @" << get.getName()
                              << " -> a local copy around the construct\n";
  }
}

} // namespace mlir::arts::openmp
