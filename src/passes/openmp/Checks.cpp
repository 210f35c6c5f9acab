//===- Checks.cpp - which OpenMP constructs the pass supports -------------===//
//
// Every construct of the module is checked before any is rewritten, so an
// unsupported one fails the pass with a located error and the IR unchanged.
// The checks also record what the rewriting needs: the parallel regions that
// create tasks, and the work-sharing loops outside any parallel region
// (decideLoopBinding). Ordered regions are checked in Ordered.cpp.
//
//===----------------------------------------------------------------------===//

#include "passes/openmp/Converter.h"
#include "support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

using namespace mlir;
using namespace mlir::arts;

namespace mlir::arts::openmp {

LogicalResult Converter::checkAll() {
  // Task-creating functions: those with an omp.task, then their callers, to a fixpoint.
  DenseMap<StringAttr, SmallVector<StringAttr>> callers;
  SmallVector<StringAttr> worklist;
  module.walk([&](func::FuncOp fn) {
    fn.walk([&](Operation *op) {
      if (isa<omp::TaskOp>(op) && taskCreatingFunctions.insert(fn.getSymNameAttr()).second)
        worklist.push_back(fn.getSymNameAttr());
      else if (auto call = dyn_cast<func::CallOp>(op))
        callers[call.getCalleeAttr().getAttr()].push_back(fn.getSymNameAttr());
    });
  });
  while (!worklist.empty())
    for (StringAttr caller : callers.lookup(worklist.pop_back_val()))
      if (taskCreatingFunctions.insert(caller).second)
        worklist.push_back(caller);
  module.walk([&](omp::ParallelOp parallel) {
    parallel.walk(
        [&](func::CallOp call) { calledInParallel.insert(call.getCalleeAttr().getAttr()); });
  });
  bool ok = true;
  module.walk([&](Operation *op) {
    if (isa_and_nonnull<omp::OpenMPDialect>(op->getDialect()))
      ok &= succeeded(checkConstruct(op));
    else if (auto call = dyn_cast<func::CallOp>(op))
      ok &= succeeded(checkRuntimeQuery(call));
  });
  return success(ok);
}

LogicalResult Converter::checkConstruct(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](omp::ParallelOp parallel) { return checkParallel(parallel); })
      .Case([&](omp::WsloopOp loop) { return checkWsloop(loop); })
      .Case([&](omp::LoopNestOp nest) { return checkLoopNest(nest); })
      .Case([&](omp::SingleOp single) { return checkSingle(single); })
      .Case([&](omp::MaskedOp masked) { return checkMasked(masked); })
      .Case([&](omp::TaskOp task) { return checkTask(task); })
      .Case([&](omp::OrderedRegionOp ordered) { return checkOrdered(ordered); })
      .Case([&](omp::SectionsOp sections) -> LogicalResult {
        if (!sections.getPrivateVars().empty() || !sections.getReductionVars().empty() ||
            !sections.getAllocateVars().empty())
          return sections.emitError("'private', 'reduction' and 'allocate' on omp.sections are "
                                    "not supported");
        auto fn = sections->getParentOfType<func::FuncOp>();
        if (!sections->getParentOfType<omp::ParallelOp>() && fn &&
            calledInParallel.contains(fn.getSymNameAttr()))
          return sections.emitError("omp.sections outside a parallel region, in a function "
                                    "called inside one, is not supported");
        return success();
      })
      .Case([&](omp::TaskwaitOp wait) -> LogicalResult {
        if (!wait.getDependVars().empty() || wait.getNowait())
          return wait.emitError("'depend' and 'nowait' on omp.taskwait are not supported");
        return success();
      })
      .Case([&](omp::TaskgroupOp group) -> LogicalResult {
        if (!group.getTaskReductionVars().empty() || !group.getAllocateVars().empty())
          return group.emitError("'task_reduction' and 'allocate' on omp.taskgroup are not "
                                 "supported");
        return success();
      })
      .Case<omp::MasterOp, omp::BarrierOp, omp::TerminatorOp, omp::YieldOp,
            omp::DeclareReductionOp, omp::PrivateClauseOp, omp::CriticalOp,
            omp::CriticalDeclareOp, omp::SectionOp>([](Operation *) { return success(); })
      .Default([](Operation *other) {
        return other->emitError() << "unsupported OpenMP construct '" << other->getName() << "'";
      });
}

LogicalResult Converter::checkParallel(omp::ParallelOp op) {
  if (!op.getAllocateVars().empty())
    return op.emitError("'allocate' clause on omp.parallel is not supported");
  if (!op.getReductionVars().empty())
    return op.emitError("reduction clause on omp.parallel is not supported (reductions are "
                        "kept on omp.wsloop only)");
  if (auto n = getConstantIntValue(op.getNumThreads()); n && *n <= 0)
    return op.emitError() << "num_threads must be positive, got " << *n;
  // OpenMP runs a nested region with a team of one by default; a nested
  // parallel task would instead run its whole body once per worker.
  if (op->getParentOfType<omp::ParallelOp>() && !isPlainRegion(op))
    return op.emitError("nested omp.parallel is not supported"); // else a team of one
  // A region in a function a parallel region calls: those calls get a copy whose regions
  // run as a team of one (serializeNestedRegions), when they can.
  auto fn = op->getParentOfType<func::FuncOp>();
  if (fn && calledInParallel.contains(fn.getSymNameAttr()) && !runsAsTeamOfOne(fn))
    return op.emitError() << "omp.parallel in @" << fn.getSymName()
                          << ", which is called inside a parallel region: nested parallelism "
                             "is not supported";
  bool createsTasks = false;
  op.walk([&](Operation *inner) {
    if (isa<omp::TaskOp>(inner) && !includedTasks.contains(inner))
      createsTasks = true;
    else if (isa<omp::TaskwaitOp, omp::TaskgroupOp>(inner) && !insideIncluded(inner))
      createsTasks = true;
    else if (auto call = dyn_cast<func::CallOp>(inner))
      createsTasks |= taskCreatingFunctions.contains(call.getCalleeAttr().getAttr());
  });
  if (createsTasks) {
    Operation *creator = taskCreator(op);
    if (!creator) {
      std::string why = whyThreadsCannotTakeTurns(op);
      if (!why.empty())
        return op.emitError("omp.task in a parallel region is supported when one 'single' or "
                            "'master' construct is the whole region, or when every thread "
                            "creates tasks and nothing else orders the threads (here: ")
               << why << ")";
      creator = op; // every thread creates tasks: the threads take turns on the host
    }
    CARTS_DEBUG("tasks", op) << "creates tasks (itself or through the functions it calls)\n";
    taskTeams[op] = creator;
  }
  return checkPrivates(op, op.getPrivateVars(), op.getPrivateSyms());
}

/// Why the threads of `op`'s team cannot run one after another on the host, each creating
/// its tasks, or "" when they can: nothing in the region (outside its tasks) waits for or
/// divides work among the other threads (a barrier, a worksharing construct, single,
/// master, ordered), no private clause, and the functions it calls do not ask which thread
/// they run in (their calls would answer for the host).
std::string Converter::whyThreadsCannotTakeTurns(omp::ParallelOp op) {
  if (!op.getPrivateVars().empty() || !op.getRegion().hasOneBlock())
    return "private clauses";
  std::string why;
  DenseSet<StringAttr> seen;
  std::function<void(Operation *)> visit = [&](Operation *root) {
    root->walk<WalkOrder::PreOrder>([&](Operation *inner) {
      if (!why.empty())
        return WalkResult::interrupt();
      if (isa<omp::TaskOp>(inner))
        return WalkResult::skip(); // a task's body runs in a worker, as any task's
      if (isa<omp::BarrierOp, omp::WsloopOp, omp::SingleOp, omp::MasterOp, omp::MaskedOp,
              omp::SectionsOp, omp::OrderedRegionOp, omp::ParallelOp>(inner) &&
          inner != op.getOperation()) {
        why = "'" + inner->getName().getStringRef().str() + "'";
        return WalkResult::interrupt();
      }
      auto call = dyn_cast<func::CallOp>(inner);
      if (!call)
        return WalkResult::advance();
      StringRef callee = call.getCallee();
      if (llvm::is_contained({"omp_in_parallel", "omp_get_level", "omp_get_active_level",
                              "omp_get_team_size", "omp_get_ancestor_thread_num"},
                             callee)) {
        why = "a call to " + callee.str();
        return WalkResult::interrupt();
      }
      auto fn = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(module, call.getCalleeAttr());
      if (!fn || fn.isExternal() || !seen.insert(fn.getSymNameAttr()).second)
        return WalkResult::advance();
      bool asks = false;
      fn.walk([&](func::CallOp inside) { asks |= isTeamQuery(inside); });
      if (asks) {
        why = "@" + fn.getSymName().str() + " asks which thread it runs in";
        return WalkResult::interrupt();
      }
      visit(fn);
      return WalkResult::advance();
    });
  };
  visit(op);
  return why;
}

/// Whether `inner` sets up a thread's private copies at the top of `region`: an alloca, a
/// constant, a read of a variable from outside the region, or a store into one of the
/// region's allocas (firstprivate).
static bool isPrivateSetup(Operation &inner, Region &region) {
  if (isa<memref::AllocaOp, arith::ConstantOp>(inner))
    return true;
  if (auto load = dyn_cast<memref::LoadOp>(inner))
    return !region.isAncestor(load.getMemRef().getParentRegion());
  if (auto store = dyn_cast<memref::StoreOp>(inner)) {
    auto alloca = store.getMemRef().getDefiningOp<memref::AllocaOp>();
    return alloca && alloca->getParentRegion() == &region;
  }
  return false;
}

/// The one single/master/masked construct that makes up the whole of a parallel
/// region (besides the set-up of private copies before it, and barriers or taskwaits
/// after it), or null.
Operation *Converter::taskCreator(omp::ParallelOp op) {
  if (!op.getPrivateVars().empty() || !op.getRegion().hasOneBlock())
    return nullptr;
  Operation *creator = nullptr;
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (!creator && isPrivateSetup(inner, op.getRegion()))
      continue;
    if (creator && isa<omp::BarrierOp, omp::TaskwaitOp>(inner))
      continue; // waits for what the region's end waits for anyway
    if (creator || !isa<omp::SingleOp, omp::MasterOp, omp::MaskedOp>(inner))
      return nullptr;
    creator = &inner;
  }
  if (auto single = dyn_cast_or_null<omp::SingleOp>(creator))
    if (!single.getPrivateVars().empty() || !single.getCopyprivateVars().empty())
      return nullptr;
  return creator;
}

LogicalResult Converter::checkTask(omp::TaskOp op) {
  if (!op.getInReductionVars().empty())
    return op.emitError("'in_reduction' on omp.task is not supported");
  if (!op.getAllocateVars().empty())
    return op.emitError("'allocate' on omp.task is not supported");
  if (op.getEventHandle())
    return op.emitError("'detach' on omp.task is not supported");
  if (!op.getPrivateVars().empty())
    return op.emitError("private clauses on omp.task are expected as plain allocas");
  for (Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp()) {
    if (isa<omp::TaskOp, omp::WsloopOp>(parent)) {
      // Inside a task or a work-sharing loop's body (a function creating tasks, inlined
      // there): an included task, run by its creator at once (includeNestedTasks).
      includedTasks.insert(op);
      break;
    }
    if (isa<omp::ParallelOp, func::FuncOp>(parent))
      break;
  }
  if (std::optional<ArrayAttr> kinds = op.getDependKinds())
    for (Attribute kind : *kinds) {
      auto dep = cast<omp::ClauseTaskDependAttr>(kind).getValue();
      if (dep != omp::ClauseTaskDepend::taskdependin &&
          dep != omp::ClauseTaskDepend::taskdependout &&
          dep != omp::ClauseTaskDepend::taskdependinout)
        return op.emitError() << "depend(" << omp::stringifyClauseTaskDepend(dep)
                              << ") on omp.task is not supported (in, out, inout are)";
    }
  return success();
}

LogicalResult Converter::checkWsloop(omp::WsloopOp op) {
  if (!op.getLinearVars().empty())
    return op.emitError("'linear' clause on omp.wsloop is not supported");
  if (op.getOrdered() && *op.getOrdered() != 0)
    return op.emitError("ordered(n) on omp.wsloop (doacross) is not supported");
  if (!op.getAllocateVars().empty())
    return op.emitError("'allocate' clause on omp.wsloop is not supported");
  if (auto kind = op.getScheduleKind(); kind && !scheduleOf(*kind))
    return op.emitError() << "schedule(" << omp::stringifyClauseScheduleKind(*kind)
                          << ") on omp.wsloop is not supported";
  Block &wrapped = op.getRegion().front();
  if (!isa<omp::LoopNestOp>(wrapped.front()))
    return op.emitError("omp.wsloop must directly wrap an omp.loop_nest (composite loop "
                        "constructs are not supported)");
  if (failed(decideLoopBinding(op)) || failed(checkReductions(op)))
    return failure();
  return checkPrivates(op, op.getPrivateVars(), op.getPrivateSyms());
}

/// Decides what a work-sharing loop is shared among. Inside a parallel region:
/// its workers. Outside any (an orphaned `omp for`, run by a team of one in
/// OpenMP): the loop gets a parallel task of its own, so its iterations are
/// still spread. That would nest parallelism if the function were also called
/// from a parallel region, so that case is rejected (direct calls only).
LogicalResult Converter::decideLoopBinding(omp::WsloopOp op) {
  for (Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp()) {
    if (isa<omp::ParallelOp>(parent))
      return success();
    if (isa<omp::SingleOp, omp::MaskedOp, omp::MasterOp, omp::WsloopOp>(parent))
      return op.emitError() << "omp.wsloop closely nested in '" << parent->getName()
                            << "' is not supported";
    if (auto fn = dyn_cast<func::FuncOp>(parent)) {
      if (calledInParallel.contains(fn.getSymNameAttr()))
        return op.emitError() << "orphaned omp.wsloop in @" << fn.getSymName()
                              << ", which is called inside a parallel region: nested "
                                 "parallelism is not supported";
      break;
    }
  }
  orphanedLoops.insert(op);
  return success();
}

LogicalResult Converter::checkReductions(omp::WsloopOp op) {
  if (auto mod = op.getReductionMod(); mod && *mod != omp::ReductionModifier::defaultmod)
    return op.emitError() << "reduction modifier '" << omp::stringifyReductionModifier(*mod)
                          << "' is not supported";
  std::optional<ArrayAttr> syms = op.getReductionSyms();
  if (!syms)
    return success();
  for (auto [acc, sym] : llvm::zip_equal(op.getReductionVars(), *syms)) {
    auto decl = SymbolTable::lookupNearestSymbolFrom<omp::DeclareReductionOp>(
        op, cast<SymbolRefAttr>(sym));
    if (!decl)
      return op.emitError() << "reduction declaration " << sym << " not found";
    auto type = dyn_cast<MemRefType>(acc.getType());
    if (!type)
      return op.emitError() << "reduction accumulator of type " << acc.getType()
                            << " is not a memref; arts.for reductions need a memref accumulator";
    // A 1-D array (an array-section reduction) keeps a partial per element; for-lowering
    // unrolls the element loops, hence the bound.
    if (type.getRank() > 1 || (type.getRank() == 1 && (type.isDynamicDim(0) || type.getDimSize(0) > 64)))
      return op.emitError() << "reduction accumulator must be a scalar or a 1-D array of at most "
                               "64 elements of static size, got "
                            << type;
    ReductionMatch match = matchReduction(decl);
    if (!match.kind)
      return op.emitError() << "reduction " << sym << " cannot be kept on arts.for: "
                            << match.whyNot;
  }
  return success();
}

LogicalResult Converter::checkPrivates(Operation *owner, ValueRange vars,
                                       std::optional<ArrayAttr> syms) {
  if (!syms)
    return success();
  for (auto [var, sym] : llvm::zip_equal(vars, *syms)) {
    auto recipe =
        SymbolTable::lookupNearestSymbolFrom<omp::PrivateClauseOp>(owner, cast<SymbolRefAttr>(sym));
    if (!recipe)
      return owner->emitError() << "privatizer " << sym << " not found";
    auto type = dyn_cast<MemRefType>(var.getType());
    if (!type)
      return owner->emitError() << "private variable of type " << var.getType()
                                << " is not a memref; only memref variables can be privatized";
    if (!type.getLayout().isIdentity())
      return owner->emitError() << "private variable of type " << type
                                << " has a non-identity layout; cannot allocate its copy";
    for (Region &region : recipe->getRegions()) {
      if (region.empty())
        continue;
      if (!region.hasOneBlock())
        return owner->emitError() << "privatizer " << sym
                                  << " has control flow in a region; only single-block "
                                     "privatizers are supported";
      for (Type argType : region.getArgumentTypes())
        if (argType != type)
          return owner->emitError() << "privatizer " << sym << " takes " << argType
                                    << " but the private variable has type " << type;
    }
  }
  return success();
}

LogicalResult Converter::checkLoopNest(omp::LoopNestOp op) {
  // A loop nest under anything else than omp.wsloop is reported with its wrapper.
  if (!isa<omp::WsloopOp>(op->getParentOp()))
    return success();
  if (op.getTileSizesAttr())
    return op.emitError("tiled omp.loop_nest is not supported");
  for (Value step : op.getLoopSteps())
    if (auto s = getConstantIntValue(step); s && *s <= 0)
      return op.emitError() << "omp.loop_nest with a non-positive step (" << *s
                            << ") is not supported";
  return success();
}

LogicalResult Converter::checkSingle(omp::SingleOp op) {
  if (!op.getCopyprivateVars().empty())
    return op.emitError("'copyprivate' clause on omp.single is not supported");
  if (!op.getAllocateVars().empty())
    return op.emitError("'allocate' clause on omp.single is not supported");
  return checkPrivates(op, op.getPrivateVars(), op.getPrivateSyms());
}

LogicalResult Converter::checkMasked(omp::MaskedOp op) {
  Value filter = op.getFilteredThreadId();
  if (filter && getConstantIntValue(filter) != std::optional<int64_t>(0))
    return op.emitError("omp.masked with a filter other than thread 0 is not supported");
  return success();
}

LogicalResult Converter::checkRuntimeQuery(func::CallOp call) {
  if (!runtimeQueryOf(call.getCallee()))
    return success();
  if (call.getNumOperands() != 0 || call.getNumResults() != 1 ||
      !call.getResult(0).getType().isInteger(32))
    return call.emitError() << "'" << call.getCallee() << "' must take no argument and return i32";
  return success();
}

} // namespace mlir::arts::openmp
