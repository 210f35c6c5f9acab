//===- Nested.cpp - parallel regions reached from inside another ----------===//
//
// libgomp runs a parallel region nested in another (one active level, its default) with
// a team of one. The front end does so for a region nested in the same function; this
// does it for a region in a function that a parallel region calls: the call sites inside
// parallel regions call a copy of the function whose regions run as a team of one (their
// bodies in place, worksharing loops as plain loops, single/master/sections their
// statements, barriers nothing), and the thread queries there answer for that team.
//
//===----------------------------------------------------------------------===//

#include "passes/openmp/Converter.h"
#include "support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::arts;

namespace mlir::arts::openmp {

namespace {

/// The body of `op`'s single-block region, in place of `op` (its terminator dropped).
void inlineBody(IRRewriter &rewriter, Operation *op, ValueRange args = {}) {
  Block &block = op->getRegion(0).front();
  rewriter.eraseOp(block.getTerminator());
  rewriter.inlineBlockBefore(&block, op, args);
  rewriter.eraseOp(op);
}

/// `omp.wsloop` as the plain loop nest a team of one runs: one `scf.for` per dimension,
/// reductions into the variables themselves.
void serializeLoop(IRRewriter &rewriter, omp::WsloopOp loop) {
  auto nest = cast<omp::LoopNestOp>(loop.getWrappedLoop());
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> ivs;
  Operation *innermostYield = nullptr;
  for (auto [lb, ub, step] : llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                                       nest.getLoopSteps())) {
    Value upper = ub;
    if (nest.getLoopInclusive()) // `to ub inclusive`: one more
      upper = arith::AddIOp::create(rewriter, loc, ub, step);
    auto inner = scf::ForOp::create(rewriter, loc, lb, upper, step);
    ivs.push_back(inner.getInductionVar());
    innermostYield = inner.getBody()->getTerminator();
    rewriter.setInsertionPoint(innermostYield);
  }
  Block &body = nest.getRegion().front();
  rewriter.eraseOp(body.getTerminator()); // omp.yield
  rewriter.inlineBlockBefore(&body, innermostYield, ivs);
  // The reduction accumulators (the wrapper's block arguments) are the variables.
  Block &wrapper = loop.getRegion().front();
  for (auto [arg, var] : llvm::zip(wrapper.getArguments(), loop.getReductionVars()))
    rewriter.replaceAllUsesWith(arg, var);
  rewriter.eraseOp(loop);
}

/// The constructs of a region run by a team of one, outside its tasks.
void serializeTeam(IRRewriter &rewriter, Region &region) {
  SmallVector<Operation *> constructs;
  region.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<omp::TaskOp>(op))
      return WalkResult::skip(); // a task's body is not the team's code
    if (isa<omp::WsloopOp, omp::SingleOp, omp::MasterOp, omp::MaskedOp, omp::SectionsOp,
            omp::SectionOp, omp::BarrierOp, omp::OrderedRegionOp, func::CallOp>(op))
      constructs.push_back(op);
    return WalkResult::advance();
  });
  for (Operation *op : constructs) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      StringRef callee = call.getCallee();
      std::optional<int32_t> answer =
          llvm::StringSwitch<std::optional<int32_t>>(callee)
              .Case("omp_get_thread_num", 0)
              .Case("omp_get_num_threads", 1)
              .Case("omp_get_level", 2)
              .Case("omp_in_parallel", 1) // the enclosing region is active
              .Case("omp_get_active_level", 1)
              .Default(std::nullopt);
      if (answer && call.getNumResults() == 1 && call.getResult(0).getType().isInteger(32)) {
        rewriter.setInsertionPoint(call);
        rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(call, rewriter.getI32Type(), *answer);
      }
      continue;
    }
    if (auto loop = dyn_cast<omp::WsloopOp>(op)) {
      serializeLoop(rewriter, loop);
    } else if (isa<omp::BarrierOp>(op)) {
      rewriter.eraseOp(op);
    } else if (auto sections = dyn_cast<omp::SectionsOp>(op)) {
      inlineBody(rewriter, sections); // its sections, in order; each is inlined in turn
    } else {
      inlineBody(rewriter, op); // single, master, masked, section, ordered
    }
  }
}

bool insideParallel(Operation *op) { return op->getParentOfType<omp::ParallelOp>() != nullptr; }

/// The functions holding a parallel region.
DenseSet<StringAttr> functionsWithRegions(ModuleOp module) {
  DenseSet<StringAttr> found;
  module.walk([&](omp::ParallelOp op) {
    if (auto fn = op->getParentOfType<func::FuncOp>())
      found.insert(fn.getSymNameAttr());
  });
  return found;
}

} // namespace

/// Whether the regions of `fn` can run as a team of one: none keeps private or reduction
/// clauses in the dialect (the front end gives neither).
bool Converter::runsAsTeamOfOne(func::FuncOp fn) {
  bool ok = !fn.isExternal();
  fn.walk([&](omp::ParallelOp op) { ok &= isPlainRegion(op); });
  return ok;
}

void Converter::serializeNestedRegions() {
  // A region inside another (a function holding one inlined into a region): in place.
  SmallVector<omp::ParallelOp> inner;
  module.walk([&](omp::ParallelOp op) {
    if (op->getParentOfType<omp::ParallelOp>() && isPlainRegion(op))
      inner.push_back(op);
  });
  for (omp::ParallelOp op : llvm::reverse(inner)) { // innermost first
    CARTS_DEBUG(kChannel, op) << "omp.parallel inside another -> a team of one, in place "
                                 "(libgomp's default)\n";
    serializeTeam(rewriter, op.getRegion());
    inlineBody(rewriter, op);
  }
  // The calls from inside a parallel region to a function holding one; then, in each copy
  // made, its own calls to such functions (the copy's regions are gone, its calls still
  // run inside the caller's team).
  DenseSet<StringAttr> holdRegions = functionsWithRegions(module);
  SmallVector<func::CallOp> nestedCalls;
  module.walk([&](func::CallOp call) {
    if (holdRegions.contains(call.getCalleeAttr().getAttr()) && insideParallel(call))
      nestedCalls.push_back(call);
  });
  DenseMap<StringAttr, func::FuncOp> copies;
  while (!nestedCalls.empty()) {
    func::CallOp call = nestedCalls.pop_back_val();
    StringAttr name = call.getCalleeAttr().getAttr();
    func::FuncOp &copy = copies[name];
    if (!copy) {
      auto original = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(module, name);
      if (!original || !runsAsTeamOfOne(original))
        continue;
      rewriter.setInsertionPointAfter(original);
      copy = cast<func::FuncOp>(rewriter.clone(*original));
      copy.setSymName((name.getValue() + ".team_of_one").str());
      copy.setPrivate();
      SmallVector<omp::ParallelOp> regions;
      copy.walk<WalkOrder::PreOrder>([&](omp::ParallelOp op) {
        regions.push_back(op);
        return WalkResult::skip();
      });
      for (omp::ParallelOp op : regions) {
        serializeTeam(rewriter, op.getRegion());
        inlineBody(rewriter, op);
      }
      copy.walk([&](func::CallOp inner) {
        if (holdRegions.contains(inner.getCalleeAttr().getAttr()))
          nestedCalls.push_back(inner);
      });
      CARTS_DEBUG(kChannel, original)
          << "@" << name.getValue() << " holds a parallel region and is called inside one -> "
          << "those calls call @" << copy.getSymName()
          << ", whose regions run as a team of one (libgomp's default)\n";
    }
    rewriter.modifyOpInPlace(call, [&] {
      call.setCalleeAttr(FlatSymbolRefAttr::get(copy.getSymNameAttr()));
    });
  }
}

/// A task created inside another task or in a work-sharing loop's body (a function that
/// creates tasks, inlined there) is an included task, as the front end makes a task
/// written there: its creator runs it at once, so its body takes its place. Its depend
/// items order it after siblings its creator made before it, which running in creation
/// order satisfies; a taskwait or taskgroup inside it, or in a work-sharing loop's body,
/// waits for tasks that are included too, done by then.
void Converter::includeNestedTasks() {
  SmallVector<Operation *> tasks(includedTasks.begin(), includedTasks.end());
  SmallVector<Operation *> waits;
  module.walk([&](Operation *inner) {
    if (isa<omp::TaskwaitOp, omp::TaskgroupOp>(inner) && insideIncluded(inner))
      waits.push_back(inner);
  });
  for (Operation *wait : waits) {
    if (isa<omp::TaskgroupOp>(wait))
      inlineBody(rewriter, wait);
    else
      rewriter.eraseOp(wait);
  }
  for (Operation *task : tasks)
    CARTS_DEBUG("tasks", task) << "omp.task inside a task or a work-sharing loop -> included: "
                                  "its creator runs its body in place\n";
  for (Operation *task : tasks)
    inlineBody(rewriter, task);
  includedTasks.clear();
}

namespace {

/// Whether `op` is a single/master/masked construct holding a task.
bool createsTasksItself(Operation &op) {
  if (!isa<omp::SingleOp, omp::MasterOp, omp::MaskedOp>(op))
    return false;
  bool found = false;
  op.walk([&](omp::TaskOp) { found = true; });
  return found;
}

/// Whether `op` can be computed again wherever it is used: no memory effects and no
/// regions, or a question about the team (asked again in the same thread).
bool recomputable(Operation *op) {
  if (isa<func::CallOp>(op))
    return isTeamQuery(op);
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

} // namespace

/// A parallel region that holds, among other work or beside another, a single or master
/// that creates tasks: one region per part, in order, each creator alone in its own (which
/// becomes host code creating tasks, as a region made of one creator does). Each part waits for the one
/// before (a barrier more, which OpenMP allows: threads only wait longer). A part may use
/// what earlier parts computed without memory effects (or the thread's number): it is
/// computed again there; per-thread storage must belong to one part. Otherwise the region
/// stays as it is (and the checks refuse it).
void Converter::splitRegionsAroundCreators() {
  SmallVector<omp::ParallelOp> regions;
  module.walk([&](omp::ParallelOp op) {
    if (!op->getParentOfType<omp::ParallelOp>())
      regions.push_back(op);
  });
  for (omp::ParallelOp op : regions) {
    if (!isPlainRegion(op))
      continue;
    Block &block = op.getRegion().front();
    // the parts: each creator alone, the runs of other operations between them
    SmallVector<SmallVector<Operation *>> parts;
    unsigned creators = 0;
    bool others = false;
    for (Operation &inner : block.without_terminator()) {
      bool creator = createsTasksItself(inner);
      creators += creator;
      if (creator || parts.empty() || createsTasksItself(*parts.back().front()))
        parts.emplace_back();
      parts.back().push_back(&inner);
      others |= !creator &&
                !isa<memref::AllocaOp, arith::ConstantOp, omp::BarrierOp, omp::TaskwaitOp>(inner);
    }
    // several creators alone are split too: each its own region, one after the other
    if (!creators || (!others && creators < 2) || parts.size() < 2)
      continue;
    DenseMap<Operation *, unsigned> partOf;
    for (auto [index, part] : llvm::enumerate(parts))
      for (Operation *inner : part)
        partOf[inner] = index;
    // what each part needs from the others: values computed again, storage it alone uses
    SmallVector<DenseSet<Operation *>> keep(parts.size());
    bool fits = true;
    for (auto [index, part] : llvm::enumerate(parts)) {
      SmallVector<Operation *> work(part.begin(), part.end());
      DenseSet<Operation *> &kept = keep[index];
      kept.insert(part.begin(), part.end());
      while (!work.empty() && fits) {
        Operation *user = work.pop_back_val();
        user->walk([&](Operation *nested) {
          for (Value v : nested->getOperands()) {
            Operation *def = v.getDefiningOp();
            if (!def || def->getBlock() != &block || kept.contains(def))
              continue;
            if (isa<memref::AllocaOp>(def)) {
              bool alone = llvm::all_of(def->getUsers(), [&](Operation *u) {
                Operation *top = block.findAncestorOpInBlock(*u);
                return top && partOf.lookup(top) == index;
              });
              fits &= alone;
            } else {
              fits &= recomputable(def);
            }
            kept.insert(def);
            work.push_back(def);
          }
        });
      }
    }
    if (!fits)
      continue;
    // A part with nothing of its own (waits the region before it ends with, values the
    // parts after it compute again) gets no region.
    auto empty = [](ArrayRef<Operation *> part) {
      return llvm::all_of(part, [](Operation *inner) {
        return isa<omp::BarrierOp, omp::TaskwaitOp, memref::AllocaOp>(inner) ||
               recomputable(inner);
      });
    };
    CARTS_DEBUG("tasks", op) << "omp.parallel holding a task-creating single or master among "
                                "other work or beside another -> "
                             << llvm::count_if(parts, [&](auto &part) { return !empty(part); })
                             << " regions in order, each creator alone in its own\n";
    rewriter.setInsertionPoint(op);
    for (auto [index, part] : llvm::enumerate(parts)) {
      if (empty(part))
        continue;
      IRMapping map;
      rewriter.clone(*op, map);
      SmallVector<Operation *> drop;
      for (Operation &inner : block.without_terminator())
        if (!keep[index].contains(&inner))
          drop.push_back(map.lookup(&inner));
      for (Operation *dead : llvm::reverse(drop))
        rewriter.eraseOp(dead);
    }
    rewriter.eraseOp(op);
  }
}

} // namespace mlir::arts::openmp
