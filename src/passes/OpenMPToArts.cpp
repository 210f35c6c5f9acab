//===- OpenMPToArts.cpp - the omp dialect becomes ARTS tasks and loops ----===//
//
// Described in Passes.td (`OpenMPToArts`), with the construct-to-op table.
// Every OpenMP construct of the module is checked first, so an unsupported one
// fails the pass before the IR changes at all; then the constructs are
// rewritten outermost first: each body moves into the op replacing its
// construct, and the constructs nested in it are rewritten in their new place.
// Two decisions go beyond the one-to-one mapping, each made in one function:
// decideLoopBinding gives an orphaned work-sharing loop a parallel task of its
// own, and threadPrivateStorageOf turns thread-private allocas that only one
// loop uses into per-iteration storage (ARTS runs iterations in chunk tasks,
// not in the workers of the parallel task). Reduction operators are recognised
// by analysis/ReductionOps.h, as in collect-metadata.
//
// This file holds the pass, the rewriting driver and the rewrites of parallel
// regions, tasks, single/master and sections; the checks, the clause mapping,
// ordered and work-sharing loops and critical sections are in openmp/, around
// the Converter of openmp/Converter.h.
//
//===----------------------------------------------------------------------===//

#include "passes/openmp/Converter.h"
#include "support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::arts {
#define GEN_PASS_DEF_OPENMPTOARTS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace mlir::arts::openmp {

const llvm::StringLiteral kChannel = "openmp-to-arts";

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

void Converter::convertAll() {
  includeNestedTasks();
  serializeNestedRegions();
  convertCriticals(); // first: an update they become may then become a loop's reduction
  shadowGlobalReductions();
  splitParallelIfs();
  hoistUniformBarriers();
  hoistLoopsOutOfParallel();
  SmallVector<omp::OrderedRegionOp> ordered;
  module.walk([&](omp::OrderedRegionOp op) { ordered.push_back(op); });
  for (omp::OrderedRegionOp op : ordered)
    splitOrderedLoop(op);
  SmallVector<Operation *> constructs;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<omp::ParallelOp, omp::WsloopOp, omp::SingleOp, omp::MaskedOp, omp::MasterOp,
            omp::BarrierOp, omp::TaskOp, omp::TaskwaitOp, omp::TaskgroupOp, omp::SectionsOp>(op))
      constructs.push_back(op);
  });
  DenseSet<Operation *> creators;
  for (auto &[team, creator] : taskTeams)
    if (creator != team)
      creators.insert(creator);
  for (Operation *op : constructs) {
    if (creators.contains(op))
      continue; // converted with its parallel region
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](omp::ParallelOp parallel) {
          if (Operation *creator = taskTeams.lookup(parallel))
            convertTaskTeam(parallel, creator);
          else
            convertParallel(parallel);
        })
        .Case([&](omp::TaskOp task) { convertTask(task); })
        .Case([&](omp::TaskwaitOp wait) {
          CARTS_DEBUG("tasks", wait) << "omp.taskwait -> arts.barrier (an epoch ends here)\n";
          rewriter.setInsertionPoint(wait);
          rewriter.replaceOpWithNewOp<BarrierOp>(wait);
        })
        .Case([&](omp::TaskgroupOp group) {
          CARTS_DEBUG("tasks", group) << "omp.taskgroup -> its body + arts.barrier (an epoch "
                                         "ends at its end)\n";
          moveRegionBody(group.getRegion(), group, {});
          rewriter.setInsertionPoint(group);
          BarrierOp::create(rewriter, group.getLoc());
          rewriter.eraseOp(group);
        })
        .Case([&](omp::WsloopOp loop) { convertWsloop(loop); })
        .Case([&](omp::SectionsOp sections) { convertSections(sections); })
        .Case([&](omp::SingleOp single) {
          convertSingleTask(single, single.getRegion(), !single.getNowait(),
                            single.getPrivateVars(), single.getPrivateSyms());
        })
        .Case<omp::MaskedOp, omp::MasterOp>([&](auto masked) {
          convertSingleTask(masked, masked.getRegion(), /*barrierAfter=*/false, {},
                            std::nullopt);
        })
        .Case([&](omp::BarrierOp barrier) {
          CARTS_DEBUG(kChannel, barrier) << "omp.barrier -> arts.barrier\n";
          rewriter.setInsertionPoint(barrier);
          rewriter.replaceOpWithNewOp<BarrierOp>(barrier);
        });
  }
  convertRuntimeQueries();
  convertTeamRoutines();
  eraseDeadDeclarations();
}

void Converter::convertParallel(omp::ParallelOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  IntegerAttr workers;
  if (auto n = getConstantIntValue(op.getNumThreads()))
    workers = rewriter.getI64IntegerAttr(*n);
  CARTS_DEBUG(kChannel, op) << "omp.parallel -> arts.edt <parallel> workers="
                            << (workers ? std::to_string(workers.getInt())
                                        : op.getNumThreads() ? "unset (num_threads not constant)"
                                                             : "unset")
                            << " privates=" << op.getPrivateVars().size() << "\n";
  EdtOp edt = createTask(loc, EdtType::parallel, workers);
  SmallVector<PrivateCopy> privates =
      materializePrivates(op, op.getPrivateVars(), op.getPrivateSyms(), "per task");

  auto clauses = cast<omp::BlockArgOpenMPOpInterface>(op.getOperation());
  SmallVector<Value> entryArgs(op.getRegion().getNumArguments());
  for (auto [arg, copy] : llvm::zip_equal(clauses.getPrivateBlockArgs(), privates))
    entryArgs[arg.getArgNumber()] = copy.value;
  Operation *end = edt.getBody().front().getTerminator();
  moveRegionBody(op.getRegion(), end, entryArgs);
  rewriter.setInsertionPoint(end);
  emitDeallocs(privates);
  rewriter.eraseOp(op);
}

void Converter::convertTaskTeam(omp::ParallelOp op, Operation *creator) {
  if (creator == op.getOperation())
    return convertThreadsTakingTurns(op);
  CARTS_DEBUG("tasks", op) << "omp.parallel around one " << creator->getName()
                           << " that creates tasks -> host code; the runtime's workers run "
                              "the tasks; arts.barrier at its end\n";
  Location loc = op.getLoc();
  // The creator's code runs on the host, outside any parallel task; the team it speaks of
  // (there and in its tasks) is still the region's: num_threads, else every worker.
  SmallVector<func::CallOp> sizes;
  op.walk([&](func::CallOp call) {
    if (call.getCallee() == "omp_get_num_threads")
      sizes.push_back(call);
  });
  for (func::CallOp call : sizes) {
    rewriter.setInsertionPoint(call);
    CARTS_DEBUG("tasks", call) << "omp_get_num_threads in a region of tasks -> "
                               << (op.getNumThreads() ? "its num_threads" : "the worker count")
                               << "\n";
    rewriter.replaceOp(call, teamSize(op)); // num_threads is defined before the region
  }
  moveRegionBody(creator->getRegion(0), creator, {});
  rewriter.eraseOp(creator);
  moveRegionBody(op.getRegion(), op, {});
  rewriter.setInsertionPoint(op);
  BarrierOp::create(rewriter, loc);
  rewriter.eraseOp(op);
}

/// The size of `op`'s team, at the insertion point: num_threads, else every worker.
Value Converter::teamSize(omp::ParallelOp op) {
  if (Value size = op.getNumThreads())
    return size;
  return RuntimeQueryOp::create(rewriter, op.getLoc(), rewriter.getI32Type(),
                                RuntimeQueryKind::total_workers);
}

/// A region in which every thread creates tasks and nothing orders the threads (the
/// checks made sure): the threads take turns on the host, `for (t = 0; t < team; t++)`
/// running the region with t as the thread number, and the runtime's workers run the
/// tasks; a barrier at the end waits for them. One execution OpenMP allows: threads that
/// never wait for each other may run in any interleaving, one after another included.
void Converter::convertThreadsTakingTurns(omp::ParallelOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value size = teamSize(op);
  CARTS_DEBUG("tasks", op) << "omp.parallel whose every thread creates tasks -> host code, the "
                              "threads taking turns ("
                           << (op.getNumThreads() ? "num_threads" : "the worker count")
                           << " of them); arts.barrier at its end\n";
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto turns = scf::ForOp::create(rewriter, loc, zero, toIndex(loc, size), one);
  Block &body = op.getRegion().front();
  rewriter.eraseOp(body.getTerminator());
  rewriter.inlineBlockBefore(&body, turns.getBody()->getTerminator());
  SmallVector<func::CallOp> queries;
  turns.getBody()->walk<WalkOrder::PreOrder>([&](Operation *inner) {
    if (isa<omp::TaskOp>(inner))
      return WalkResult::skip(); // in a task, the worker that runs it answers
    if (isTeamQuery(inner))
      queries.push_back(cast<func::CallOp>(inner));
    return WalkResult::advance();
  });
  for (func::CallOp call : queries) {
    rewriter.setInsertionPoint(call);
    Value answer = call.getCallee() == "omp_get_num_threads"
                       ? size
                       : fromIndex(call.getLoc(), turns.getInductionVar(), rewriter.getI32Type());
    rewriter.replaceOp(call, answer);
  }
  rewriter.setInsertionPointAfter(turns);
  BarrierOp::create(rewriter, loc);
  rewriter.eraseOp(op);
}

void Converter::convertTask(omp::TaskOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  EdtOp edt = createTask(loc, EdtType::task, {});
  // a chunk of a taskloop: create-dbs shares its writes
  if (artsDialect(op)->getTaskloopAttrHelper().isAttrPresent(op))
    artsDialect(edt)->getTaskloopAttrHelper().setAttr(edt, rewriter.getUnitAttr());
  Operation *end = edt.getBody().front().getTerminator();
  moveRegionBody(op.getRegion(), end, {});
  rewriter.setInsertionPointToStart(&edt.getBody().front());
  std::string text = "omp.task -> arts.edt <task>";
  llvm::raw_string_ostream line(text);
  if (std::optional<ArrayAttr> kinds = op.getDependKinds()) {
    for (auto [var, kind] : llvm::zip_equal(op.getDependVars(), *kinds)) {
      ArtsMode mode;
      switch (cast<omp::ClauseTaskDepend>(cast<omp::ClauseTaskDependAttr>(kind).getValue())) {
      case omp::ClauseTaskDepend::taskdependin:
        mode = ArtsMode::in;
        break;
      case omp::ClauseTaskDepend::taskdependout:
        mode = ArtsMode::out;
        break;
      default:
        mode = ArtsMode::inout;
        break;
      }
      DependOp::create(rewriter, loc, ArtsModeAttr::get(rewriter.getContext(), mode), var);
      line << "; depend(" << stringifyArtsMode(mode) << ") on the memref of "
           << locationString(var.getLoc()) << " -> arts.depend <" << stringifyArtsMode(mode)
           << ">";
    }
  }
  if (op.getFinal())
    line << "; 'final' ignored (ARTS tasks are always deferred)";
  if (op.getPriority())
    line << "; 'priority' ignored";
  if (op.getUntied() || op.getMergeable())
    line << "; 'untied'/'mergeable' ignored (hints)";
  if (Value cond = op.getIfExpr()) {
    // if(false): an undeferred task. The same task runs in an epoch of its own, so
    // the creator continues once it has finished; its acquires still order it
    // after the earlier tasks it depends on.
    rewriter.setInsertionPoint(edt);
    auto branch = scf::IfOp::create(rewriter, loc, cond, /*withElseRegion=*/true);
    rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
    rewriter.clone(*edt);
    rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
    auto epoch = EpochOp::create(rewriter, loc, rewriter.getI64Type());
    Block *inner = rewriter.createBlock(&epoch.getBody());
    rewriter.setInsertionPointToEnd(inner);
    YieldOp::create(rewriter, loc);
    edt->moveBefore(inner->getTerminator());
    line << "; 'if' -> scf.if: the task when true, else the task in an epoch of its own "
            "(undeferred)";
  }
  CARTS_DEBUG("tasks", op) << text << "\n";
  rewriter.eraseOp(op);
}

void Converter::convertSingleTask(Operation *op, Region &body, bool barrierAfter,
                                  ValueRange privateVars, std::optional<ArrayAttr> privateSyms) {
  Location loc = op->getLoc();
  CARTS_DEBUG(kChannel, op) << op->getName() << " -> arts.edt <single> barrier=" << barrierAfter
                            << " privates=" << privateVars.size() << "\n";
  rewriter.setInsertionPoint(op);
  EdtOp edt = createTask(loc, EdtType::single, {});
  SmallVector<PrivateCopy> privates = materializePrivates(op, privateVars, privateSyms, "per task");

  SmallVector<Value> entryArgs(body.getNumArguments());
  if (auto clauses = dyn_cast<omp::BlockArgOpenMPOpInterface>(op))
    for (auto [arg, copy] : llvm::zip_equal(clauses.getPrivateBlockArgs(), privates))
      entryArgs[arg.getArgNumber()] = copy.value;
  Operation *end = edt.getBody().front().getTerminator();
  moveRegionBody(body, end, entryArgs);
  rewriter.setInsertionPoint(end);
  emitDeallocs(privates);
  if (barrierAfter) {
    rewriter.setInsertionPointAfter(edt);
    BarrierOp::create(rewriter, loc);
  }
  rewriter.eraseOp(op);
}

/// `omp.sections`: in a parallel region each section is a task run once, like a
/// `single` without its barrier, and the construct's barrier follows them (unless
/// nowait); outside one, the team of one runs the sections in order.
void Converter::convertSections(omp::SectionsOp op) {
  Block &block = op.getRegion().front();
  SmallVector<omp::SectionOp> sections(block.getOps<omp::SectionOp>());
  // The enclosing omp.parallel is converted first (constructs go outside in).
  bool inTeam = static_cast<bool>(op->getParentOfType<omp::ParallelOp>());
  for (Operation *parent = op->getParentOp(); parent && !inTeam; parent = parent->getParentOp())
    if (auto edt = dyn_cast<EdtOp>(parent))
      inTeam = edt.getEdtType() == EdtType::parallel;
  CARTS_DEBUG(kChannel, op) << "omp.sections -> " << sections.size()
                            << (inTeam ? " arts.edt <single>, one per section" : " bodies in order (no team)")
                            << ", barrier=" << !op.getNowait() << "\n";
  for (omp::SectionOp section : sections) {
    if (inTeam) {
      convertSingleTask(section, section.getRegion(), /*barrierAfter=*/false, {}, std::nullopt);
    } else {
      moveRegionBody(section.getRegion(), section, {});
      rewriter.eraseOp(section);
    }
  }
  rewriter.eraseOp(block.getTerminator());
  rewriter.inlineBlockBefore(&block, op);
  if (!op.getNowait() && inTeam) {
    rewriter.setInsertionPoint(op);
    BarrierOp::create(rewriter, op.getLoc());
  }
  rewriter.eraseOp(op);
}

/// `omp.parallel if(c)`: `scf.if c` between the region and a copy of it run by a team
/// of one (num_threads(1)), as OpenMP runs it when c is false. A region of tasks runs on
/// the runtime's workers either way, so its `if` is dropped.
void Converter::splitParallelIfs() {
  SmallVector<omp::ParallelOp> parallels;
  module.walk([&](omp::ParallelOp op) {
    if (op.getIfExpr())
      parallels.push_back(op);
  });
  for (omp::ParallelOp op : parallels) {
    Value cond = op.getIfExpr();
    rewriter.modifyOpInPlace(op, [&] { op.getIfExprMutable().clear(); });
    if (taskTeams.contains(op)) {
      if (taskTeams.lookup(op) == op.getOperation()) {
        // threads taking turns: if(false) is one turn
        Location loc = op.getLoc();
        rewriter.setInsertionPoint(op);
        Value size = teamSize(op);
        Value one = arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 1);
        Value turns = arith::SelectOp::create(rewriter, loc, cond, size, one);
        rewriter.modifyOpInPlace(op, [&] { op.getNumThreadsMutable().assign(turns); });
        CARTS_DEBUG(kChannel, op) << "if clause on a parallel region whose threads create "
                                     "tasks -> its thread count is 1 when false\n";
        continue;
      }
      CARTS_DEBUG(kChannel, op) << "if clause on a parallel region of tasks: dropped (tasks "
                                   "run on the runtime's workers)\n";
      continue;
    }
    CARTS_DEBUG(kChannel, op) << "if clause on omp.parallel -> scf.if: the region, else a "
                                 "copy run by a team of one\n";
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    auto branch = scf::IfOp::create(rewriter, loc, cond, /*withElseRegion=*/true);
    rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
    Value one = arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 1);
    auto alone = cast<omp::ParallelOp>(rewriter.clone(*op));
    rewriter.modifyOpInPlace(alone, [&] { alone.getNumThreadsMutable().assign(one); });
    rewriter.moveOpBefore(op, branch.thenBlock()->getTerminator());
  }
}

void Converter::convertRuntimeQueries() {
  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) {
    if (runtimeQueryOf(call.getCallee()))
      calls.push_back(call);
  });
  for (func::CallOp call : calls) {
    RuntimeQueryKind kind = *runtimeQueryOf(call.getCallee());
    // Outside a parallel region the team is the one initial thread.
    bool inTeam = false;
    for (auto edt = call->getParentOfType<EdtOp>(); edt && !inTeam;
         edt = edt->getParentOfType<EdtOp>())
      inTeam = edt.getEdtType() == EdtType::parallel;
    if (!inTeam && call.getCallee() != "omp_get_max_threads") {
      int64_t value = kind == RuntimeQueryKind::current_worker ? 0 : 1;
      if (kind == RuntimeQueryKind::current_worker) {
        // The task asking it (or, outside every task, the function: a task may call it).
        Operation *asker = call->getParentOfType<EdtOp>();
        if (!asker)
          asker = call->getParentOfType<func::FuncOp>();
        for (; asker; asker = asker->getParentOfType<EdtOp>())
          artsDialect(asker)->getAsksThreadAttrHelper().setAttr(asker, rewriter.getUnitAttr());
      }
      CARTS_DEBUG(kChannel, call) << call.getCallee() << " outside a parallel region -> "
                                  << value << "\n";
      rewriter.setInsertionPoint(call);
      rewriter.replaceOpWithNewOp<arith::ConstantIntOp>(call, rewriter.getI32Type(), value);
      continue;
    }
    CARTS_DEBUG(kChannel, call) << call.getCallee() << " -> arts.runtime_query <"
                                << stringifyRuntimeQueryKind(kind) << ">\n";
    rewriter.setInsertionPoint(call);
    rewriter.replaceOpWithNewOp<RuntimeQueryOp>(call, rewriter.getI32Type(), kind);
  }
}

/// The routines that describe the enclosing regions, inside a parallel region (the team is
/// one level, active when it has more than one thread) or a task. Outside both, the calls
/// stay: the runtime's definitions answer for the initial thread.
void Converter::convertTeamRoutines() {
  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) {
    if (llvm::is_contained({"omp_in_parallel", "omp_get_level", "omp_get_active_level",
                            "omp_get_team_size", "omp_get_ancestor_thread_num",
                            "omp_in_explicit_task"},
                           call.getCallee()))
      calls.push_back(call);
  });
  for (func::CallOp call : calls) {
    bool inTeam = false, inTask = false;
    for (auto edt = call->getParentOfType<EdtOp>(); edt; edt = edt->getParentOfType<EdtOp>()) {
      inTeam |= edt.getEdtType() == EdtType::parallel;
      inTask |= edt.getEdtType() == EdtType::task;
    }
    StringRef name = call.getCallee();
    if (name == "omp_in_explicit_task" ? !inTask : !inTeam)
      continue;
    Location loc = call.getLoc();
    rewriter.setInsertionPoint(call);
    Type i32 = rewriter.getI32Type();
    auto constant = [&](int64_t v) { return arith::ConstantIntOp::create(rewriter, loc, i32, v); };
    auto teamSize = [&] {
      return RuntimeQueryOp::create(rewriter, loc, i32, RuntimeQueryKind::total_workers);
    };
    auto active = [&] {
      Value several = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt, teamSize(),
                                            constant(1));
      return arith::ExtUIOp::create(rewriter, loc, i32, several).getResult();
    };
    // level 0: the initial thread's answer; level 1: the team's; any other: -1
    auto byLevel = [&](Value atZero, Value atOne) {
      Value level = call.getOperand(0);
      Value isZero = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, level,
                                           constant(0));
      Value isOne = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, level,
                                          constant(1));
      Value inner = arith::SelectOp::create(rewriter, loc, isOne, atOne, constant(-1));
      return arith::SelectOp::create(rewriter, loc, isZero, atZero, inner).getResult();
    };
    Value value;
    if (name == "omp_in_parallel" || name == "omp_get_active_level")
      value = active();
    else if (name == "omp_get_level" || name == "omp_in_explicit_task")
      value = constant(1);
    else if (name == "omp_get_team_size")
      value = byLevel(constant(1), teamSize());
    else
      value = byLevel(constant(0), RuntimeQueryOp::create(rewriter, loc, i32,
                                                          RuntimeQueryKind::current_worker));
    CARTS_DEBUG(kChannel, call) << name << " inside a " << (inTeam ? "parallel region" : "task")
                                << " -> its value there\n";
    rewriter.replaceOp(call, value);
  }
}

/// Reduction and privatizer declarations, and the omp_get_* function
/// declarations, once nothing refers to them any more.
void Converter::eraseDeadDeclarations() {
  for (Operation &op : llvm::make_early_inc_range(module.getBody()->getOperations())) {
    bool candidate = isa<omp::DeclareReductionOp, omp::PrivateClauseOp, omp::CriticalDeclareOp>(op);
    if (auto fn = dyn_cast<func::FuncOp>(op))
      candidate = fn.isDeclaration() && fn.getSymName().starts_with("omp_get_");
    if (!candidate || !SymbolTable::symbolKnownUseEmpty(&op, module))
      continue;
    if (isa<func::FuncOp>(op))
      CARTS_DEBUG(kChannel, &op) << "erased unused declaration @"
                                 << cast<func::FuncOp>(op).getSymName() << "\n";
    rewriter.eraseOp(&op);
  }
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// An empty `arts.edt <type> <intranode> route(0) {no_verify}` at the insertion
/// point; leaves the rewriter inside its body, before the terminator.
EdtOp Converter::createTask(Location loc, EdtType type, IntegerAttr workers) {
  Value route = arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 0);
  auto edt = EdtOp::create(rewriter, loc, type, EdtConcurrency::intranode, route, ValueRange{},
                           workers, /*nowait=*/false, /*no_verify=*/true);
  rewriter.createBlock(&edt.getBody());
  Operation *end = YieldOp::create(rewriter, loc);
  rewriter.setInsertionPoint(end);
  return edt;
}

/// A fresh copy of each private variable at the insertion point: a
/// `memref.alloca` of the variable's type, then the privatizer's init region,
/// then (firstprivate) its copy region from the original.
SmallVector<PrivateCopy> Converter::materializePrivates(Operation *owner, ValueRange vars,
                                                        std::optional<ArrayAttr> syms,
                                                        StringRef scope) {
  SmallVector<PrivateCopy> copies;
  if (!syms)
    return copies;
  Location loc = owner->getLoc();
  for (auto [var, sym] : llvm::zip_equal(vars, *syms)) {
    auto recipe =
        SymbolTable::lookupNearestSymbolFrom<omp::PrivateClauseOp>(owner, cast<SymbolRefAttr>(sym));
    auto type = cast<MemRefType>(var.getType());
    SmallVector<Value> dynamicSizes;
    for (auto [dim, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        dynamicSizes.push_back(memref::DimOp::create(rewriter, loc, var, dim));
    Value copy = memref::AllocaOp::create(rewriter, loc, type, dynamicSizes);
    if (!recipe.getInitRegion().empty())
      copy = inlineRecipe(recipe.getInitRegion(), {var, copy});
    bool first = recipe.getDataSharingType() == omp::DataSharingClauseType::FirstPrivate;
    if (first)
      copy = inlineRecipe(recipe.getCopyRegion(), {var, copy});
    CARTS_DEBUG(kChannel, owner) << (first ? "firstprivate " : "private ") << sym
                                 << " -> memref.alloca " << type << " " << scope << "\n";
    copies.push_back({copy, recipe});
  }
  return copies;
}

/// Clones a single-block recipe region at the insertion point with its
/// arguments bound to `args`; returns the yielded value (or the last argument).
Value Converter::inlineRecipe(Region &recipe, ValueRange args) {
  IRMapping mapping;
  mapping.map(recipe.getArguments(), args);
  Block &block = recipe.front();
  for (Operation &op : block.without_terminator())
    rewriter.clone(op, mapping);
  Operation *yield = block.getTerminator();
  if (yield->getNumOperands() == 0)
    return args.empty() ? Value() : args.back();
  return mapping.lookupOrDefault(yield->getOperand(0));
}

void Converter::emitDeallocs(ArrayRef<PrivateCopy> copies) {
  for (PrivateCopy copy : copies)
    if (!copy.recipe.getDeallocRegion().empty())
      inlineRecipe(copy.recipe.getDeallocRegion(), {copy.value});
}

/// Moves the body of an omp region in front of `before`, its entry arguments
/// replaced by `entryArgs` and its omp terminators dropped. A body of several
/// blocks keeps its control flow inside an scf.execute_region.
void Converter::moveRegionBody(Region &region, Operation *before, ValueRange entryArgs) {
  Block &entry = region.front();
  if (region.hasOneBlock()) {
    rewriter.eraseOp(entry.getTerminator());
    rewriter.inlineBlockBefore(&entry, before, entryArgs);
    return;
  }
  for (auto [arg, value] : llvm::zip_equal(entry.getArguments(), entryArgs))
    rewriter.replaceAllUsesWith(arg, value);
  entry.eraseArguments(0, entry.getNumArguments());
  rewriter.setInsertionPoint(before);
  auto wrapper = scf::ExecuteRegionOp::create(rewriter, before->getLoc(), TypeRange{});
  rewriter.inlineRegionBefore(region, wrapper.getRegion(), wrapper.getRegion().end());
  for (Block &block : wrapper.getRegion()) {
    Operation *terminator = block.getTerminator();
    if (isa<omp::TerminatorOp, omp::YieldOp>(terminator)) {
      rewriter.setInsertionPoint(terminator);
      rewriter.replaceOpWithNewOp<scf::YieldOp>(terminator);
    }
  }
}

Value Converter::toIndex(Location loc, Value v) {
  if (v.getType().isIndex())
    return v;
  return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), v);
}

Value Converter::fromIndex(Location loc, Value v, Type type) {
  if (type.isIndex())
    return v;
  return arith::IndexCastOp::create(rewriter, loc, type, v);
}

} // namespace mlir::arts::openmp

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct OpenMPToArts : arts::impl::OpenMPToArtsBase<OpenMPToArts> {
  void runOnOperation() override {
    openmp::Converter converter(getOperation());
    converter.splitRegionsAroundCreators(); // a rewrite the checks then see as regions
    if (failed(converter.checkAll()))
      return signalPassFailure();
    converter.convertAll();
  }
};
} // namespace
