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
// by policy/Reductions.h, as in collect-metadata.
//
//===----------------------------------------------------------------------===//

#include "policy/Reductions.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::arts {
#define GEN_PASS_DEF_OPENMPTOARTS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

static constexpr llvm::StringLiteral kChannel = "openmp-to-arts";

static std::optional<int64_t> constantInt(Value v) {
  APInt value;
  if (v && matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Mapping OpenMP clauses to ARTS attributes
//===----------------------------------------------------------------------===//

static std::optional<ScheduleKind> scheduleOf(omp::ClauseScheduleKind kind) {
  switch (kind) {
  case omp::ClauseScheduleKind::Static:
    return ScheduleKind::static_;
  case omp::ClauseScheduleKind::Dynamic:
    return ScheduleKind::dynamic;
  case omp::ClauseScheduleKind::Guided:
    return ScheduleKind::guided;
  case omp::ClauseScheduleKind::Auto:
    return ScheduleKind::auto_;
  case omp::ClauseScheduleKind::Runtime:
    return ScheduleKind::runtime;
  case omp::ClauseScheduleKind::Distribute:
    return std::nullopt;
  }
  return std::nullopt;
}

static std::optional<RuntimeQueryKind> runtimeQueryOf(StringRef callee) {
  return llvm::StringSwitch<std::optional<RuntimeQueryKind>>(callee)
      .Case("omp_get_thread_num", RuntimeQueryKind::current_worker)
      .Case("omp_get_num_threads", RuntimeQueryKind::total_workers)
      .Case("omp_get_max_threads", RuntimeQueryKind::total_workers)
      .Default(std::nullopt);
}

/// `select(cmp(a, b), a, b)`: max when the compare is `>`, min when it is `<`
/// (the unsigned kinds for unsigned compares); swapped select operands swap the two.
static std::optional<ReductionKind> kindOfCompareSelect(arith::SelectOp select) {
  std::optional<MinMaxCompare> cmp = minMaxCompare(select.getCondition().getDefiningOp());
  if (!cmp)
    return std::nullopt;
  if (select.getTrueValue() == cmp->lhs && select.getFalseValue() == cmp->rhs)
    return minMaxKind(*cmp, /*keepsLhs=*/true);
  if (select.getTrueValue() == cmp->rhs && select.getFalseValue() == cmp->lhs)
    return minMaxKind(*cmp, /*keepsLhs=*/false);
  return std::nullopt;
}

/// `ext(cmp ne(a, 0) and/or cmp ne(b, 0))`: C's `&&` and `||` on the two partials.
static std::optional<ReductionKind> kindOfLogical(ArrayRef<Operation *> ops, Block &block) {
  if (ops.size() != 4 || !isa<arith::ExtUIOp>(ops[3]))
    return std::nullopt;
  auto isTruthOfArg = [&](Operation *op) {
    auto cmp = dyn_cast<arith::CmpIOp>(op);
    return cmp && cmp.getPredicate() == arith::CmpIPredicate::ne &&
           isa<BlockArgument>(cmp.getLhs()) && cast<BlockArgument>(cmp.getLhs()).getOwner() == &block &&
           matchPattern(cmp.getRhs(), m_Zero());
  };
  if (!isTruthOfArg(ops[0]) || !isTruthOfArg(ops[1]) || ops[3]->getOperand(0) != ops[2]->getResult(0))
    return std::nullopt;
  if (isa<arith::AndIOp>(ops[2]))
    return ReductionKind::land;
  if (isa<arith::OrIOp>(ops[2]))
    return ReductionKind::lor;
  return std::nullopt;
}

/// The reduction kind of an atomic update `x = x op e` of a whole scalar, whose old
/// value nothing uses: `memref.atomic_rmw`, or a `memref.generic_atomic_rmw` whose block
/// combines the current value with a value from outside (`x - e` adds up like `+`).
static std::optional<ReductionKind> kindOfAtomicUpdate(Operation *op) {
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op)) {
    if (!rmw.getIndices().empty() || !rmw.getResult().use_empty())
      return std::nullopt;
    using K = arith::AtomicRMWKind;
    switch (rmw.getKind()) {
    case K::addf: case K::addi: return ReductionKind::add;
    case K::mulf: case K::muli: return ReductionKind::mul;
    case K::maxs: case K::maxnumf: case K::maximumf: return ReductionKind::max;
    case K::mins: case K::minnumf: case K::minimumf: return ReductionKind::min;
    case K::maxu: return ReductionKind::umax;
    case K::minu: return ReductionKind::umin;
    case K::andi: return ReductionKind::band;
    case K::ori: return ReductionKind::bor;
    case K::xori: return ReductionKind::bxor;
    default: return std::nullopt;
    }
  }
  auto rmw = dyn_cast<memref::GenericAtomicRMWOp>(op);
  if (!rmw || !rmw.getIndices().empty() || !rmw.getResult().use_empty())
    return std::nullopt;
  Block &block = rmw.getAtomicBody().front();
  if (!llvm::hasSingleElement(block.without_terminator()))
    return std::nullopt;
  Operation &combining = block.front();
  Value cur = block.getArgument(0);
  if (combining.getNumOperands() != 2 || combining.getNumResults() != 1 ||
      block.getTerminator()->getOperand(0) != combining.getResult(0))
    return std::nullopt;
  Value lhs = combining.getOperand(0), rhs = combining.getOperand(1);
  auto outside = [&](Value v) { return !rmw->isAncestor(v.getParentRegion()->getParentOp()); };
  if (isa<arith::SubIOp, arith::SubFOp>(combining))
    return lhs == cur && outside(rhs) ? std::optional(ReductionKind::add) : std::nullopt;
  if (!((lhs == cur && outside(rhs)) || (rhs == cur && outside(lhs))))
    return std::nullopt;
  return combiningKindOf(&combining);
}

namespace {
/// The ARTS kind of an `omp.declare_reduction`, or why it has none.
struct ReductionMatch {
  std::optional<ReductionKind> kind;
  StringRef whyNot;
};
} // namespace

/// Reads the operator off the combiner region. Loads and stores are ignored
/// so that by-reference declarations (which load both sides and store the
/// result) match like by-value ones.
static ReductionMatch matchReduction(omp::DeclareReductionOp decl) {
  Region &combiner = decl.getReductionRegion();
  if (!combiner.hasOneBlock())
    return {std::nullopt, "its combiner has control flow"};
  SmallVector<Operation *> computing;
  for (Operation &op : combiner.front().without_terminator())
    if (!isa<memref::LoadOp, memref::StoreOp, LLVM::LoadOp, LLVM::StoreOp>(op))
      computing.push_back(&op);
  if (computing.size() == 1)
    if (auto kind = combiningKindOf(computing[0]))
      return {kind, ""};
  if (computing.size() == 2)
    if (auto select = dyn_cast<arith::SelectOp>(computing[1]))
      if (select.getCondition().getDefiningOp() == computing[0])
        if (auto kind = kindOfCompareSelect(select))
          return {kind, ""};
  // The constant zero the logical form compares with is not part of the operator.
  SmallVector<Operation *> logical;
  for (Operation *op : computing)
    if (!matchPattern(op, m_Constant()))
      logical.push_back(op);
  if (auto kind = kindOfLogical(logical, combiner.front()))
    return {kind, ""};
  return {std::nullopt, "its combiner is not one of + * max min & | ^ && ||"};
}

//===----------------------------------------------------------------------===//
// The conversion
//===----------------------------------------------------------------------===//

namespace {

/// A task-local copy of a private variable, and the recipe that made it.
struct PrivateCopy {
  Value value;
  omp::PrivateClauseOp recipe;
};

class Converter {
public:
  explicit Converter(ModuleOp module) : module(module), rewriter(module.getContext()) {}

  /// Reports every construct the conversion cannot handle; no IR change.
  LogicalResult checkAll();
  /// Rewrites every construct; only called once checkAll succeeded.
  void convertAll();

private:
  LogicalResult checkConstruct(Operation *op);
  LogicalResult checkParallel(omp::ParallelOp op);
  LogicalResult checkWsloop(omp::WsloopOp op);
  LogicalResult checkLoopNest(omp::LoopNestOp op);
  LogicalResult checkSingle(omp::SingleOp op);
  LogicalResult checkMasked(omp::MaskedOp op);
  LogicalResult checkPrivates(Operation *owner, ValueRange vars, std::optional<ArrayAttr> syms);
  LogicalResult checkReductions(omp::WsloopOp op);
  LogicalResult checkRuntimeQuery(func::CallOp call);
  LogicalResult checkTask(omp::TaskOp op);
  LogicalResult decideLoopBinding(omp::WsloopOp op);
  Operation *taskCreator(omp::ParallelOp op);

  void convertParallel(omp::ParallelOp op);
  void convertWsloop(omp::WsloopOp op);
  void atomicUpdatesToReductions(omp::WsloopOp op, SmallVector<Value> &accs,
                                 SmallVector<Attribute> &kinds);
  void convertSingleTask(Operation *op, Region &body, bool barrierAfter, ValueRange privateVars,
                         std::optional<ArrayAttr> privateSyms);
  void convertTaskTeam(omp::ParallelOp op, Operation *creator);
  void convertTask(omp::TaskOp op);
  void convertRuntimeQueries();
  void eraseDeadDeclarations();
  void convertCriticals();
  void hoistLoopsOutOfParallel();
  LogicalResult checkOrdered(omp::OrderedRegionOp op);
  void splitOrderedLoop(omp::OrderedRegionOp op);
  void convertSections(omp::SectionsOp op);
  void splitParallelIfs();
  bool criticalToAtomic(omp::CriticalOp op, const DenseSet<Value> &guardedWrites);

  EdtOp createTask(Location loc, EdtType type, IntegerAttr workers);
  SmallVector<PrivateCopy> materializePrivates(Operation *owner, ValueRange vars,
                                               std::optional<ArrayAttr> syms, StringRef scope);
  SmallVector<memref::AllocaOp> threadPrivateStorageOf(omp::WsloopOp op);
  Value inlineRecipe(Region &recipe, ValueRange args);
  void emitDeallocs(ArrayRef<PrivateCopy> copies);
  void moveRegionBody(Region &region, Operation *before, ValueRange entryArgs);
  Value toIndex(Location loc, Value v);
  Value fromIndex(Location loc, Value v, Type type);

  ModuleOp module;
  IRRewriter rewriter;
  /// Work-sharing loops outside any parallel region; each gets its own parallel task.
  DenseSet<Operation *> orphanedLoops;
  /// Functions called from inside an omp.parallel region.
  DenseSet<StringAttr> calledInParallel;
  /// Functions that create tasks, themselves or through the functions they call.
  DenseSet<StringAttr> taskCreatingFunctions;
  /// Parallel regions that become host code creating tasks, with their single/master.
  DenseMap<Operation *, Operation *> taskTeams;
};
} // namespace

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

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
  if (auto n = constantInt(op.getNumThreads()); n && *n <= 0)
    return op.emitError() << "num_threads must be positive, got " << *n;
  // OpenMP runs a nested region with a team of one by default; a nested
  // parallel task would instead run its whole body once per worker.
  if (op->getParentOfType<omp::ParallelOp>())
    return op.emitError("nested omp.parallel is not supported");
  auto fn = op->getParentOfType<func::FuncOp>();
  if (fn && calledInParallel.contains(fn.getSymNameAttr()))
    return op.emitError() << "omp.parallel in @" << fn.getSymName()
                          << ", which is called inside a parallel region: nested parallelism "
                             "is not supported";
  bool createsTasks = false;
  op.walk([&](Operation *inner) {
    if (isa<omp::TaskOp, omp::TaskwaitOp, omp::TaskgroupOp>(inner))
      createsTasks = true;
    else if (auto call = dyn_cast<func::CallOp>(inner))
      createsTasks |= taskCreatingFunctions.contains(call.getCalleeAttr().getAttr());
  });
  if (createsTasks) {
    Operation *creator = taskCreator(op);
    if (!creator)
      return op.emitError("omp.task in a parallel region is supported when one 'single' or "
                          "'master' construct is the whole region (tasks that every thread "
                          "of the team creates are not)");
    CARTS_DEBUG("tasks", op) << "creates tasks (itself or through the functions it calls)\n";
    taskTeams[op] = creator;
  }
  return checkPrivates(op, op.getPrivateVars(), op.getPrivateSyms());
}

/// The one single/master/masked construct that makes up the whole of a parallel
/// region (besides allocas and constants), or null.
Operation *Converter::taskCreator(omp::ParallelOp op) {
  if (!op.getPrivateVars().empty() || !op.getRegion().hasOneBlock())
    return nullptr;
  Operation *creator = nullptr;
  for (Operation &inner : op.getRegion().front().without_terminator()) {
    if (isa<memref::AllocaOp, arith::ConstantOp>(inner))
      continue;
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
    if (isa<omp::TaskOp>(parent))
      return op.emitError("omp.task nested in another task is not supported (create the "
                          "inner tasks from a function the outer task calls)");
    if (isa<omp::WsloopOp>(parent))
      return op.emitError("omp.task inside a work-sharing loop is not supported");
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
    if (auto s = constantInt(step); s && *s <= 0)
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
  if (filter && constantInt(filter) != std::optional<int64_t>(0))
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

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

void Converter::convertAll() {
  convertCriticals(); // first: an update they become may then become a loop's reduction
  splitParallelIfs();
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
  eraseDeadDeclarations();
}

void Converter::convertParallel(omp::ParallelOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  IntegerAttr workers;
  if (auto n = constantInt(op.getNumThreads()))
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
  CARTS_DEBUG("tasks", op) << "omp.parallel around one " << creator->getName()
                           << " that creates tasks -> host code; the runtime's workers run "
                              "the tasks; arts.barrier at its end\n";
  Location loc = op.getLoc();
  moveRegionBody(creator->getRegion(0), creator, {});
  rewriter.eraseOp(creator);
  moveRegionBody(op.getRegion(), op, {});
  rewriter.setInsertionPoint(op);
  BarrierOp::create(rewriter, loc);
  rewriter.eraseOp(op);
}

void Converter::convertTask(omp::TaskOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  EdtOp edt = createTask(loc, EdtType::task, {});
  if (op->hasAttr("arts.taskloop")) // a chunk of a taskloop: create-dbs shares its writes
    edt->setAttr("arts.taskloop", rewriter.getUnitAttr());
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

//===----------------------------------------------------------------------===//
// Ordered loops
//===----------------------------------------------------------------------===//
//
// `for (i ...) { A(i); ordered { B(i) } C(i) }` becomes two loops: the work-sharing
// loop runs A(i) and stores what B and C use from it into one buffer slot per
// iteration; after its barrier, one task runs B(i); C(i) for every i in order. OpenMP
// orders only the ordered parts among themselves, and A(j) may run before or after
// B(i) for any i and j, so the split keeps every ordering a race-free program sees.

namespace {
/// What crosses from the part before an ordered region to the part from it on.
struct OrderedSplit {
  SmallVector<Operation *> before, after; // the body's ops, the terminator excluded
  SmallVector<Operation *> recomputed;    // pure ops of `before` on the IV alone, cloned
  llvm::SetVector<Value> values;          // other SSA values of `before` used after
  llvm::SetVector<Value> storage;         // per-thread scalars (allocas) used by both
};
} // namespace

static OrderedSplit orderedSplitOf(omp::OrderedRegionOp op) {
  OrderedSplit split;
  Block &body = *op->getBlock();
  bool seen = false;
  for (Operation &inner : body.without_terminator()) {
    seen |= &inner == op.getOperation();
    (seen ? split.after : split.before).push_back(&inner);
  }
  auto ws = op->getParentOfType<omp::WsloopOp>();
  // `i` as an int, `i * 2`: cheaper to compute again than to keep.
  DenseSet<Value> pureOfIv;
  for (Operation *inner : split.before) {
    bool onIv = isMemoryEffectFree(inner) && inner->getNumRegions() == 0 &&
                llvm::all_of(inner->getOperands(), [&](Value v) {
                  return v.getParentBlock() != &body || isa<BlockArgument>(v) || pureOfIv.contains(v);
                });
    if (onIv) {
      split.recomputed.push_back(inner);
      pureOfIv.insert(inner->getResults().begin(), inner->getResults().end());
    }
  }
  DenseSet<Value> usedBefore;
  for (Operation *inner : split.before)
    inner->walk([&](Operation *o) { usedBefore.insert(o->getOperands().begin(), o->getOperands().end()); });
  for (Operation *inner : split.after)
    inner->walk([&](Operation *o) {
      for (Value v : o->getOperands()) {
        if (v.getParentBlock() == &body && !isa<BlockArgument>(v) && !pureOfIv.contains(v))
          split.values.insert(v);
        else if (auto alloca = v.getDefiningOp<memref::AllocaOp>())
          if (!ws->isAncestor(alloca) && usedBefore.contains(v))
            split.storage.insert(v);
      }
    });
  return split;
}

LogicalResult Converter::checkOrdered(omp::OrderedRegionOp op) {
  auto nest = dyn_cast<omp::LoopNestOp>(op->getParentOp());
  auto ws = nest ? dyn_cast<omp::WsloopOp>(nest->getParentOp()) : nullptr;
  if (!ws || !ws.getOrdered())
    return op.emitError("omp.ordered.region must be directly in the body of a loop with the "
                        "'ordered' clause (not nested in other control flow)");
  if (nest.getIVs().size() != 1)
    return op.emitError("omp.ordered.region in a collapsed loop nest is not supported");
  if (std::distance(nest.getRegion().front().getOps<omp::OrderedRegionOp>().begin(),
                    nest.getRegion().front().getOps<omp::OrderedRegionOp>().end()) != 1)
    return op.emitError("a loop with more than one omp.ordered.region is not supported");
  Operation *team = ws->getParentOfType<omp::ParallelOp>();
  Operation *outer = team ? team : ws.getOperation();
  for (Value bound : {nest.getLoopLowerBounds()[0], nest.getLoopUpperBounds()[0],
                      nest.getLoopSteps()[0]})
    if (outer->isAncestor(bound.getParentRegion()->getParentOp()))
      return op.emitError("ordered loop whose bounds are computed inside its parallel region "
                          "is not supported");
  OrderedSplit split = orderedSplitOf(op);
  for (Value v : split.values)
    if (!v.getType().isIntOrIndexOrFloat())
      return op.emitError() << "a value of type " << v.getType()
                            << " computed before the ordered region and used in it";
  for (Value v : split.storage) {
    auto type = cast<MemRefType>(v.getType());
    if (type.getRank() != 0)
      return op.emitError() << "per-thread storage " << type
                            << " used both before and in the ordered region";
    for (Operation *user : v.getUsers()) {
      bool plain = isa<memref::LoadOp>(user) ||
                   (isa<memref::StoreOp>(user) && cast<memref::StoreOp>(user).getMemRef() == v);
      if (ws->isAncestor(user) && !plain)
        return op.emitError() << "per-thread storage " << type << " used by '"
                              << user->getName() << "' in an ordered loop";
    }
  }
  return success();
}

void Converter::splitOrderedLoop(omp::OrderedRegionOp op) {
  auto nest = cast<omp::LoopNestOp>(op->getParentOp());
  auto ws = cast<omp::WsloopOp>(nest->getParentOp());
  Operation *team = ws->getParentOfType<omp::ParallelOp>();
  Operation *outer = team ? team : ws.getOperation();
  Location loc = op.getLoc();
  OrderedSplit split = orderedSplitOf(op);
  Block &body = nest.getRegion().front();
  Value iv = nest.getIVs()[0];
  Value lb = nest.getLoopLowerBounds()[0], ub = nest.getLoopUpperBounds()[0],
        step = nest.getLoopSteps()[0];

  // Buffers, one slot per iteration, shared by the team: allocated before it, freed after.
  rewriter.setInsertionPoint(outer);
  Value lbI = toIndex(loc, lb), ubI = toIndex(loc, ub), stepI = toIndex(loc, step);
  if (nest.getLoopInclusive())
    ubI = arith::AddIOp::create(rewriter, loc, ubI, arith::ConstantIndexOp::create(rewriter, loc, 1));
  Value span = arith::MaxSIOp::create(rewriter, loc, arith::SubIOp::create(rewriter, loc, ubI, lbI),
                                      arith::ConstantIndexOp::create(rewriter, loc, 0));
  Value trips = arith::CeilDivSIOp::create(rewriter, loc, span, stepI);
  llvm::MapVector<Value, Value> buffers;
  auto bufferFor = [&](Value v, Type element) {
    auto type = MemRefType::get({ShapedType::kDynamic}, element);
    buffers[v] = memref::AllocOp::create(rewriter, loc, type, ValueRange{trips});
  };
  for (Value v : split.values)
    bufferFor(v, v.getType());
  for (Value v : split.storage)
    bufferFor(v, cast<MemRefType>(v.getType()).getElementType());
  rewriter.setInsertionPointAfter(outer);
  for (auto &[v, buffer] : buffers)
    memref::DeallocOp::create(rewriter, loc, buffer);

  // The slot of an iteration: (i - lb) / step.
  auto slotOf = [&](Value i) -> Value {
    Value offset = arith::SubIOp::create(rewriter, loc, toIndex(loc, i), lbI);
    return arith::DivSIOp::create(rewriter, loc, offset, stepI);
  };
  // Per-thread scalars live in their slot instead, in both loops.
  auto redirect = [&](Operation *user, Value slot) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(user);
    if (auto load = dyn_cast<memref::LoadOp>(user))
      rewriter.replaceOpWithNewOp<memref::LoadOp>(load, buffers[load.getMemRef()], ValueRange{slot});
    else if (auto store = dyn_cast<memref::StoreOp>(user))
      rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(), buffers[store.getMemRef()],
                                                   ValueRange{slot});
  };

  // The first loop keeps the part before the region and fills the slots.
  rewriter.setInsertionPointToStart(&body);
  Value slot = slotOf(iv);
  rewriter.setInsertionPoint(op);
  for (Value v : split.values)
    memref::StoreOp::create(rewriter, loc, v, buffers[v], ValueRange{slot});
  for (Value v : split.storage)
    for (Operation *user : llvm::make_early_inc_range(v.getUsers()))
      if (llvm::any_of(split.before, [&](Operation *b) { return b->isAncestor(user); }))
        redirect(user, slot);

  // The second loop: every iteration's ordered part, then the rest, in order, in one task.
  rewriter.setInsertionPointAfter(ws);
  if (team && ws.getNowait())
    omp::BarrierOp::create(rewriter, loc);
  Block *seqBlock = nullptr;
  if (team) {
    auto single = omp::SingleOp::create(rewriter, loc, omp::SingleOperands{});
    seqBlock = rewriter.createBlock(&single.getRegion());
    omp::TerminatorOp::create(rewriter, loc);
    rewriter.setInsertionPointToStart(seqBlock);
  }
  auto seq = scf::ForOp::create(rewriter, loc, lbI, ubI, stepI);
  rewriter.setInsertionPointToStart(seq.getBody());
  Value seqIv = fromIndex(loc, seq.getInductionVar(), iv.getType());
  Value seqSlot = slotOf(seqIv);
  IRMapping map;
  map.map(iv, seqIv);
  for (Value v : split.values)
    map.map(v, memref::LoadOp::create(rewriter, loc, buffers[v], ValueRange{seqSlot}));
  for (Operation *inner : split.recomputed)
    rewriter.clone(*inner, map);
  Operation *end = seq.getBody()->getTerminator();
  for (Operation *inner : split.after) {
    rewriter.setInsertionPoint(end);
    if (inner == op.getOperation()) {
      for (Operation &o : op.getRegion().front().without_terminator())
        rewriter.clone(o, map);
    } else {
      rewriter.clone(*inner, map);
    }
  }
  for (Value v : split.storage)
    for (Operation *user : llvm::make_early_inc_range(v.getUsers()))
      if (seq->isAncestor(user))
        redirect(user, seqSlot);
  for (Operation *inner : llvm::reverse(split.after))
    rewriter.eraseOp(inner);
  CARTS_DEBUG(kChannel, op) << "omp.ordered.region -> the loop split: " << split.values.size()
                            << " value(s) and " << split.storage.size()
                            << " per-thread scalar(s) kept per iteration; the ordered part and "
                               "what follows it run in order in one task after the loop\n";
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
    inner->setAttr("arts.collapsed", rewriter.getUnitAttr());
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

/// Reduction and privatizer declarations, and the omp_get_* function
/// declarations, once nothing refers to them any more.
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

/// `omp.parallel { for (t ...) { omp for ...; omp for ... } }`: the time loop every
/// thread runs holds the loops' barriers, which tasks cannot wait on inside control
/// flow. When the region is only that loop (and values computed from outside, and
/// per-thread storage used only inside its work-sharing loops), the loop goes outside
/// and each iteration gets a parallel region of its own: the same barriers, now between
/// regions. Repeated while the new region is again one such loop.
void Converter::hoistLoopsOutOfParallel() {
  SmallVector<omp::ParallelOp> worklist;
  module.walk([&](omp::ParallelOp op) { worklist.push_back(op); });
  while (!worklist.empty()) {
    omp::ParallelOp op = worklist.pop_back_val();
    if (taskTeams.contains(op) || !op.getPrivateVars().empty() || !op.getReductionVars().empty())
      continue;
    Block &block = op.getRegion().front();
    scf::ForOp loop;
    SmallVector<Operation *> pure, storage;
    bool fits = op.getRegion().hasOneBlock() && block.getNumArguments() == 0;
    for (Operation &inner : block.without_terminator()) {
      if (auto l = dyn_cast<scf::ForOp>(inner); l && !loop)
        loop = l;
      else if (isa<memref::AllocaOp>(inner))
        storage.push_back(&inner);
      else if (isMemoryEffectFree(&inner) && inner.getNumRegions() == 0 && !loop)
        pure.push_back(&inner);
      else
        fits = false;
    }
    if (!fits || !loop || loop.getNumResults() != 0)
      continue;
    bool synchronises = false;
    loop.getBody()->walk([&](Operation *inner) {
      synchronises |= isa<omp::WsloopOp, omp::BarrierOp, omp::SingleOp>(inner);
    });
    bool storageInLoops = llvm::all_of(storage, [&](Operation *alloca) {
      return llvm::all_of(alloca->getUsers(), [&](Operation *user) {
        return user->getParentOfType<omp::WsloopOp>() && loop->isAncestor(user);
      });
    });
    if (!synchronises || !storageInLoops)
      continue;
    CARTS_DEBUG(kChannel, op) << "omp.parallel whose body is one sequential loop holding its "
                                 "barriers -> the loop outside, a parallel region per "
                                 "iteration\n";
    for (Operation *inner : pure)
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

/// `omp.critical`: a body that is one update `x = x op e` of a scalar becomes that
/// atomic update (and, in a loop, maybe a reduction); any other body runs under the
/// runtime's lock for its name, in `arts.critical`.
void Converter::convertCriticals() {
  SmallVector<omp::CriticalOp> criticals;
  DenseSet<Value> guardedWrites; // memrefs some critical section stores into
  module.walk([&](omp::CriticalOp op) {
    criticals.push_back(op);
    op.walk([&](memref::StoreOp store) { guardedWrites.insert(store.getMemRef()); });
  });
  for (omp::CriticalOp op : criticals) {
    if (criticalToAtomic(op, guardedWrites))
      continue;
    std::string name = op.getNameAttr() ? op.getNameAttr().getValue().str() : "";
    CARTS_DEBUG(kChannel, op) << "omp.critical -> arts.critical \"" << name
                              << "\" (the runtime's lock of its node)\n";
    rewriter.setInsertionPoint(op);
    auto critical = CriticalOp::create(rewriter, op.getLoc(), rewriter.getStringAttr(name));
    Block *body = rewriter.createBlock(&critical.getBody());
    Operation *yield = YieldOp::create(rewriter, op.getLoc());
    Block &old = op.getRegion().front();
    rewriter.eraseOp(old.getTerminator());
    rewriter.inlineBlockBefore(&old, yield);
    (void)body;
    rewriter.eraseOp(op);
  }
}

/// `critical { x = x op e; }`, e computed in the section from values and loads of
/// memory no critical section writes, becomes one atomic update of x with e computed
/// before it: `memref.generic_atomic_rmw` (integers) or `memref.atomic_rmw addf`
/// (floats, `+` and `-` only).
bool Converter::criticalToAtomic(omp::CriticalOp op, const DenseSet<Value> &guardedWrites) {
  Block &body = op.getRegion().front();
  if (!op.getRegion().hasOneBlock() || body.getOperations().size() < 4)
    return false;
  auto store = dyn_cast<memref::StoreOp>(*std::prev(body.getTerminator()->getIterator()));
  if (!store || !store.getIndices().empty())
    return false;
  Value x = store.getMemRef();
  Operation *combining = store.getValue().getDefiningOp();
  if (!combining || combining->getBlock() != &body || combining->getNumOperands() != 2 ||
      combining->getNumResults() != 1 || !isMemoryEffectFree(combining) ||
      combining->getNumRegions())
    return false;
  auto load = combining->getOperand(0).getDefiningOp<memref::LoadOp>();
  unsigned curIndex = 0;
  if (!load || load.getMemRef() != x) {
    load = combining->getOperand(1).getDefiningOp<memref::LoadOp>();
    curIndex = 1;
  }
  if (!load || load.getMemRef() != x || load->getBlock() != &body || !load->hasOneUse())
    return false;
  Value e = combining->getOperand(1 - curIndex);
  // Everything else computes e: pure ops and loads of memory no section writes.
  SmallVector<Operation *> rest;
  for (Operation &inner : body.without_terminator()) {
    if (&inner == load || &inner == combining || &inner == store)
      continue;
    auto other = dyn_cast<memref::LoadOp>(inner);
    bool pure = isMemoryEffectFree(&inner) && inner.getNumRegions() == 0;
    if (!pure && !(other && other.getMemRef() != x && !guardedWrites.contains(other.getMemRef())))
      return false;
    if (llvm::any_of(inner.getOperands(), [&](Value v) {
          return v == load.getResult() || v == combining->getResult(0);
        }))
      return false;
    rest.push_back(&inner);
  }
  Type type = load.getType();
  bool isFloat = isa<FloatType>(type);
  if (isFloat && !(isa<arith::AddFOp>(combining) ||
                   (isa<arith::SubFOp>(combining) && curIndex == 0)))
    return false;
  if (!isFloat && !type.isSignlessInteger())
    return false;
  rewriter.setInsertionPoint(op);
  for (Operation *inner : rest)
    rewriter.moveOpBefore(inner, op);
  Location loc = store.getLoc();
  if (isFloat) {
    Value addend = isa<arith::SubFOp>(combining) ? arith::NegFOp::create(rewriter, loc, e).getResult() : e;
    memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::addf, addend, x, ValueRange{});
  } else {
    auto rmw = memref::GenericAtomicRMWOp::create(rewriter, loc, x, ValueRange{});
    OpBuilder::InsertionGuard guard(rewriter);
    Block &atomicBody = rmw.getAtomicBody().front();
    rewriter.setInsertionPointToStart(&atomicBody);
    IRMapping map;
    map.map(load.getResult(), atomicBody.getArgument(0));
    Operation *next = rewriter.clone(*combining, map);
    memref::AtomicYieldOp::create(rewriter, loc, next->getResult(0));
  }
  CARTS_DEBUG(kChannel, op) << "omp.critical -> atomic update of " << x.getType()
                            << " (its body is one 'x = x op e')\n";
  rewriter.eraseOp(op);
  return true;
}

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

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct OpenMPToArts : arts::impl::OpenMPToArtsBase<OpenMPToArts> {
  void runOnOperation() override {
    Converter converter(getOperation());
    if (failed(converter.checkAll()))
      return signalPassFailure();
    converter.convertAll();
  }
};
} // namespace
