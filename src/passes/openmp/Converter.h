//===- Converter.h - the state of openmp-to-arts --------------------------===//
//
// Internal to the openmp-to-arts pass: the Converter, which checks and then
// rewrites the OpenMP constructs of a module, and the clause helpers its
// parts share. Its methods are spread over Checks.cpp (which constructs are
// supported), Ordered.cpp (loops with an ordered region), Loops.cpp
// (work-sharing loops), Criticals.cpp (critical sections), Clauses.cpp (the
// clause mapping and reduction recognition) and ../OpenMPToArts.cpp (the
// driver, the other constructs and the pass).
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_PASSES_OPENMP_CONVERTER_H
#define CARTS_PASSES_OPENMP_CONVERTER_H

#include "passes/PassDetail.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::arts::openmp {

/// The debug channel of the pass (defined with the pass, in OpenMPToArts.cpp).
extern const llvm::StringLiteral kChannel;

//===----------------------------------------------------------------------===//
// Clauses and reductions (Clauses.cpp)
//===----------------------------------------------------------------------===//

/// The ARTS schedule of an OpenMP one; none for `distribute`.
std::optional<ScheduleKind> scheduleOf(omp::ClauseScheduleKind kind);
/// The ARTS query an `omp_get_*` runtime call becomes, if `callee` is one.
std::optional<RuntimeQueryKind> runtimeQueryOf(StringRef callee);

/// Whether `op` asks which thread it runs in, or how many there are.
inline bool isTeamQuery(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  return call && (call.getCallee() == "omp_get_thread_num" ||
                  call.getCallee() == "omp_get_num_threads");
}

/// A parallel region as the front end gives it: no private or reduction clause in the
/// dialect, one block without arguments. The rewrites that move its body around (a team of
/// one, a region split in parts) take only such regions.
inline bool isPlainRegion(omp::ParallelOp op) {
  return op.getPrivateVars().empty() && op.getReductionVars().empty() &&
         op.getRegion().hasOneBlock() && op.getRegion().front().getNumArguments() == 0;
}

/// The reduction kind of an atomic update `x = x op e` of a whole scalar, whose old
/// value nothing uses: `memref.atomic_rmw`, or a `memref.generic_atomic_rmw` whose block
/// combines the current value with a value from outside (`x - e` adds up like `+`).
std::optional<ReductionKind> kindOfAtomicUpdate(Operation *op);

/// The ARTS kind of an `omp.declare_reduction`, or why it has none.
struct ReductionMatch {
  std::optional<ReductionKind> kind;
  StringRef whyNot;
};

/// The operator of an `omp.declare_reduction`'s combiner region.
ReductionMatch matchReduction(omp::DeclareReductionOp decl);

//===----------------------------------------------------------------------===//
// The conversion
//===----------------------------------------------------------------------===//

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
  /// Before the checks: a region holding a task-creating single among other work becomes
  /// one region per part (Nested.cpp).
  void splitRegionsAroundCreators();

private:
  // Checks.cpp
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
  std::string whyThreadsCannotTakeTurns(omp::ParallelOp op);

  // Ordered.cpp
  LogicalResult checkOrdered(omp::OrderedRegionOp op);
  void splitOrderedLoop(omp::OrderedRegionOp op);

  // Loops.cpp
  void convertWsloop(omp::WsloopOp op);
  void atomicUpdatesToReductions(omp::WsloopOp op, SmallVector<Value> &accs,
                                 SmallVector<Attribute> &kinds);
  SmallVector<memref::AllocaOp> threadPrivateStorageOf(omp::WsloopOp op);
  void hoistLoopsOutOfParallel();
  void hoistUniformBarriers();
  /// A reduction into a global variable reduces into a local copy made before the team
  /// (or the loop) and stored back after it: reductions need a datablock, a global is not.
  void shadowGlobalReductions();

  // Criticals.cpp
  void convertCriticals();
  bool criticalToAtomic(omp::CriticalOp op, const DenseSet<Value> &guardedWrites);

  // OpenMPToArts.cpp: the other constructs
  void convertParallel(omp::ParallelOp op);
  void convertSingleTask(Operation *op, Region &body, bool barrierAfter, ValueRange privateVars,
                         std::optional<ArrayAttr> privateSyms);
  void convertTaskTeam(omp::ParallelOp op, Operation *creator);
  void convertThreadsTakingTurns(omp::ParallelOp op);

  // Nested.cpp
  bool runsAsTeamOfOne(func::FuncOp fn);
  void serializeNestedRegions();
  void includeNestedTasks();
  void convertTask(omp::TaskOp op);
  void convertSections(omp::SectionsOp op);
  void splitParallelIfs();
  void convertRuntimeQueries();
  void convertTeamRoutines();
  void eraseDeadDeclarations();

  // OpenMPToArts.cpp: what the rewrites build with
  EdtOp createTask(Location loc, EdtType type, IntegerAttr workers);
  SmallVector<PrivateCopy> materializePrivates(Operation *owner, ValueRange vars,
                                               std::optional<ArrayAttr> syms, StringRef scope);
  Value inlineRecipe(Region &recipe, ValueRange args);
  void emitDeallocs(ArrayRef<PrivateCopy> copies);
  void moveRegionBody(Region &region, Operation *before, ValueRange entryArgs);
  Value toIndex(Location loc, Value v);
  Value teamSize(omp::ParallelOp op);
  Value fromIndex(Location loc, Value v, Type type);

  ModuleOp module;
  IRRewriter rewriter;
  /// Work-sharing loops outside any parallel region; each gets its own parallel task.
  DenseSet<Operation *> orphanedLoops;
  /// Functions called from inside an omp.parallel region.
  DenseSet<StringAttr> calledInParallel;
  /// Functions that create tasks, themselves or through the functions they call.
  DenseSet<StringAttr> taskCreatingFunctions;
  /// Tasks created inside a task or a work-sharing loop's body: run by their creator.
  DenseSet<Operation *> includedTasks;
  /// Whether `op` sits where every task is included: in an included task, or in a
  /// work-sharing loop's body (outside any task of its own).
  bool insideIncluded(Operation *op) {
    for (Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp()) {
      if (includedTasks.contains(parent) || isa<omp::WsloopOp>(parent))
        return true;
      if (isa<omp::TaskOp, omp::ParallelOp>(parent))
        return false;
    }
    return false;
  }
  /// Parallel regions that become host code creating tasks, with their single/master (or
  /// the region itself: every thread creates tasks, and the threads take turns).
  DenseMap<Operation *, Operation *> taskTeams;
};

} // namespace mlir::arts::openmp

#endif // CARTS_PASSES_OPENMP_CONVERTER_H
