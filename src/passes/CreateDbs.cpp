//===- CreateDbs.cpp - datablocks for every array a task touches ----------===//
//
// Described in Passes.td (`CreateDbs`).
//
//===----------------------------------------------------------------------===//

#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_CREATEDBS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {

/// The handle table standing for one original allocation.
struct Datablock {
  DbAllocOp alloc;
  Value hostView; ///< `arts.db_ref %ptrs[0..]` used by code outside tasks
};

/// True if `op` sits inside some task.
bool insideTask(Operation *op) { return op->getParentOfType<EdtOp>() != nullptr; }

std::string describeType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

struct CreateDbs : arts::impl::CreateDbsBase<CreateDbs> {
  void runOnOperation() override {
    localizeDependedGlobals();
    bool anyFailed = false;
    getOperation()->walk([&](func::FuncOp func) {
      if (failed(runOnFunction(func)))
        anyFailed = true;
    });
    if (anyFailed)
      return signalPassFailure();
    reportAcquires();
  }

  LogicalResult runOnFunction(func::FuncOp func) {
    SmallVector<EdtOp> tasks;
    func.walk<WalkOrder::PreOrder>([&](EdtOp edt) {
      tasks.push_back(edt);
      return WalkResult::skip(); // nested tasks use their parent's views
    });
    llvm::MapVector<Operation *, Datablock> datablocks;
    for (EdtOp task : tasks) {
      if (failed(acquireCaptured(task, datablocks)))
        return failure();
      refreshModes(task);
      task.removeNoVerifyAttr();
    }
    // Tasks nested in a task use their parent's views: they are complete too.
    func.walk([](EdtOp edt) { edt.removeNoVerifyAttr(); });
    for (auto &[original, db] : datablocks)
      retireOriginal(original, db);
    for (auto &[original, db] : datablocks)
      refreshAllocMode(db.alloc);
    return success();
  }

  /// A cast of an outside memref that the task uses (a depend item's view of an
  /// array with a static shape) is made inside the task, so the task captures
  /// the array itself.
  void sinkCasts(EdtOp task) {
    Block &body = task.getBody().front();
    for (Value captured : capturedMemrefs(task.getBody())) {
      auto cast = captured.getDefiningOp<memref::CastOp>();
      if (!cast)
        continue;
      OpBuilder builder(&body, body.begin());
      Operation *inner = builder.clone(*cast);
      captured.replaceUsesWithIf(inner->getResult(0), [&](OpOperand &operand) {
        return task.getBody().isAncestor(operand.getOwner()->getParentRegion());
      });
    }
  }

  /// A global variable a task names in a depend item and that only `main` uses: `main`
  /// gets a copy of it at its start (allocated, the global's value copied in), which its
  /// code and tasks use instead, so that it is a datablock the depend item orders on. The
  /// global itself is not read again (`main` is its only user). A global other functions
  /// use is left alone; acquireCaptured then refuses its depend items.
  void localizeDependedGlobals() {
    ModuleOp module = getOperation();
    llvm::MapVector<StringAttr, SmallVector<memref::GetGlobalOp>> uses;
    module.walk([&](memref::GetGlobalOp get) { uses[get.getNameAttr().getAttr()].push_back(get); });
    DenseSet<StringAttr> depended;
    module.walk([&](DependOp depend) {
      if (auto get = dependTarget(depend).getDefiningOp<memref::GetGlobalOp>())
        depended.insert(get.getNameAttr().getAttr());
    });
    for (auto &[name, gets] : uses) {
      if (!depended.contains(name))
        continue;
      auto fn = gets.front()->getParentOfType<func::FuncOp>();
      if (!fn || fn.getSymName() != "main" || fn.isExternal() ||
          llvm::any_of(gets, [&](memref::GetGlobalOp get) {
            return get->getParentOfType<func::FuncOp>() != fn;
          }))
        continue;
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(module, name);
      if (!global || global.getConstant() || !global.getType().hasStaticShape())
        continue;
      MemRefType type = global.getType();
      Location loc = global.getLoc();
      OpBuilder b(&fn.getBody().front(), fn.getBody().front().begin());
      Value source = memref::GetGlobalOp::create(b, loc, type, name);
      Value local = memref::AllocOp::create(b, loc, type);
      // element by element (loops every later pass reads as host code)
      SmallVector<Value> indices;
      OpBuilder inner = b;
      for (int64_t extent : type.getShape()) {
        Value lb = arith::ConstantIndexOp::create(inner, loc, 0);
        Value ub = arith::ConstantIndexOp::create(inner, loc, extent);
        Value step = arith::ConstantIndexOp::create(inner, loc, 1);
        auto loop = scf::ForOp::create(inner, loc, lb, ub, step);
        indices.push_back(loop.getInductionVar());
        inner.setInsertionPoint(loop.getBody()->getTerminator());
      }
      Value v = memref::LoadOp::create(inner, loc, source, indices);
      memref::StoreOp::create(inner, loc, v, local, indices);
      for (memref::GetGlobalOp get : gets) {
        get.getResult().replaceAllUsesWith(local);
        get.erase();
      }
      CARTS_DEBUG("create-dbs", global) << "global @" << name.getValue()
                                        << " named by a depend item and used only in main -> "
                                           "a copy allocated at main's start (a datablock)\n";
    }
  }

  /// The memref a depend item names, through casts.
  static Value dependTarget(DependOp depend) {
    Value target = depend.getTarget();
    while (auto cast = target.getDefiningOp<memref::CastOp>())
      target = cast.getSource();
    return target;
  }

  /// True if a depend item of `task` names `memref`.
  static bool dependsOn(EdtOp task, Value memref) {
    bool found = false;
    task.getBody().walk([&](DependOp depend) { found |= dependTarget(depend) == memref; });
    return found;
  }

  /// Makes every memref `task` captures a dependency of it.
  LogicalResult acquireCaptured(EdtOp task, llvm::MapVector<Operation *, Datablock> &datablocks) {
    sinkCasts(task);
    WalkResult globals = task.getBody().walk([&](DependOp depend) {
      if (!dependTarget(depend).getDefiningOp<memref::GetGlobalOp>())
        return WalkResult::advance();
      depend.emitError("a depend item on a global variable is not supported: globals are "
                       "not datablocks, so nothing would order the task (allocate the array, "
                       "or declare the variable in a function)");
      return WalkResult::interrupt();
    });
    if (globals.wasInterrupted())
      return failure();
    for (Value captured : capturedMemrefs(task.getBody())) {
      Operation *def = captured.getDefiningOp();
      if (!def) {
        // An array the function was given: no allocation to make a datablock of. A task
        // may still use it in place (on one node) when nothing but epochs orders it:
        // tasks that split a caller's array and a taskwait (recursive divide and conquer).
        auto arg = cast<BlockArgument>(captured);
        if (task.getEdtType() == EdtType::task && !dependsOn(task, captured)) {
          CARTS_DEBUG("create-dbs", task)
              << "memref argument #" << arg.getArgNumber()
              << " stays shared memory in this task (no allocation to make a datablock of; "
                 "only epochs order its uses)\n";
          continue;
        }
        return task.emitError("task uses memref argument #")
               << arg.getArgNumber()
               << " of its function; datablocks need the allocation (inline the caller)"
               << (task.getEdtType() == EdtType::task
                       ? ", and a depend item on it needs a datablock to order on"
                       : "");
      }
      if (isa<memref::GetGlobalOp>(def)) {
        CARTS_DEBUG("create-dbs", def) << "global " << describeType(captured.getType())
                                       << " stays shared memory (not a datablock)\n";
        continue;
      }
      // A view of an existing datablock (host-side db_ref): acquire its table.
      if (auto ref = dyn_cast<DbRefOp>(def)) {
        auto alloc = ref.getPtrs().getDefiningOp<DbAllocOp>();
        if (!alloc)
          return task.emitError("task uses a datablock view whose table is not an allocation");
        acquire(task, alloc, captured, ref.getIndices());
        continue;
      }
      if (!isa<memref::AllocOp, memref::AllocaOp>(def))
        return task.emitError("cannot make a datablock of a memref defined by '")
               << def->getName() << "' (" << captured.getType() << ")";
      auto [it, inserted] = datablocks.try_emplace(def, Datablock{});
      if (inserted)
        it->second = createDatablock(def);
      OpBuilder builder(task);
      Value zero = arith::ConstantIndexOp::create(builder, task.getLoc(), 0);
      acquire(task, it->second.alloc, captured, ValueRange{zero});
    }
    return success();
  }

  /// A coarse table replacing the allocation `def`.
  Datablock createDatablock(Operation *def) {
    Location loc = def->getLoc();
    auto type = cast<MemRefType>(def->getResult(0).getType());
    OpBuilder builder(def->getContext());
    builder.setInsertionPointAfter(def);
    SmallVector<Value> elementSizes;
    unsigned dynamicIndex = 0;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (type.isDynamicDim(d))
        elementSizes.push_back(def->getOperand(dynamicIndex++));
      else
        elementSizes.push_back(arith::ConstantIndexOp::create(builder, loc, type.getDimSize(d)));
    }
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value route = arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0);
    auto blockType = MemRefType::get(type.getShape(), type.getElementType());
    auto guidsType = MemRefType::get({ShapedType::kDynamic}, builder.getI64Type());
    auto ptrsType = MemRefType::get({ShapedType::kDynamic}, blockType);
    auto alloc = DbAllocOp::create(
        builder, loc, guidsType, ptrsType, ArtsModeAttr::get(builder.getContext(), ArtsMode::inout),
        DbModeAttr::get(builder.getContext(), DbMode::write),
        PartitionModeAttr::get(builder.getContext(), PartitionMode::coarse), route, ValueRange{one},
        elementSizes, Value(), nullptr);
    Value host = DbRefOp::create(builder, loc, blockType, alloc.getPtrs(), ValueRange{zero});
    CARTS_DEBUG("create-dbs", def) << "datablock for " << describeType(type) << " ("
                                   << def->getName() << "): partition=coarse blocks=1\n";
    return {alloc, host};
  }

  /// Acquires the whole table of `alloc` for `task`; inside the task, `captured`
  /// becomes the block at `indices` of the task's view.
  void acquire(EdtOp task, DbAllocOp alloc, Value captured, ValueRange indices) {
    Location loc = task.getLoc();
    OpBuilder builder(task);
    MemrefUse use = usesIn(captured, &task.getBody());
    ArtsMode mode = modeFor(use);
    // The chunks of a taskloop, created one after another, write disjoint iterations:
    // they share their writes as `concurrent`, like the chunks of a work-sharing loop
    // (a write an atomic or critical section guards stays exclusive on several nodes).
    bool taskloop = artsDialect(task)->getTaskloopAttrHelper().isAttrPresent(task);
    if (use.writes && taskloop && (!use.atomic || moduleNodes(getOperation()) <= 1)) {
      mode = ArtsMode::concurrent;
      CARTS_DEBUG("create-dbs", task) << "taskloop chunk: acquire mode=concurrent (chunks "
                                         "write disjoint iterations)\n";
    }
    // A task with no depend item on the array is not ordered by it against its siblings
    // (OpenMP orders such tasks only by taskwait, taskgroup and barriers: epochs here), so
    // on one node its writes share the payload as `concurrent` with theirs instead of
    // queueing behind them. On several nodes a writer works on a copy merged back byte by
    // byte: two tasks writing one element in turn (ordered by a taskwait in between are
    // fine, by nothing else a race) would not see each other, so they stay exclusive there.
    if (use.writes && !taskloop && task.getEdtType() == EdtType::task &&
        !dependsOn(task, captured) && moduleNodes(getOperation()) <= 1) {
      mode = ArtsMode::concurrent;
      CARTS_DEBUG("create-dbs", task) << "task without a depend item on it: acquire "
                                         "mode=concurrent (only epochs order it against "
                                         "its siblings)\n";
    }
    auto acq = DbAcquireOp::create(
        builder, loc, alloc.getGuids().getType(), alloc.getPtrs().getType(),
        ArtsModeAttr::get(builder.getContext(), mode), alloc.getGuids(), alloc.getPtrs(),
        ValueRange{}, ValueRange{}, ValueRange{}, nullptr, nullptr, nullptr);
    task.getDepsMutable().append(acq.getPtrs());
    Block &body = task.getBody().front();
    BlockArgument view = body.addArgument(acq.getPtrs().getType(), loc);

    builder.setInsertionPointToStart(&body);
    IRMapping mapping;
    SmallVector<Value> innerIndices;
    for (Value index : indices) {
      // Indices are defined outside the task; constants are re-created inside.
      if (auto cst = index.getDefiningOp<arith::ConstantOp>())
        innerIndices.push_back(builder.clone(*cst)->getResult(0));
      else
        innerIndices.push_back(index);
    }
    Value inner = DbRefOp::create(builder, loc, captured.getType(), view, innerIndices);
    captured.replaceUsesWithIf(inner, [&](OpOperand &operand) {
      return task.getBody().isAncestor(operand.getOwner()->getParentRegion()) &&
             operand.getOwner() != inner.getDefiningOp();
    });
    builder.setInsertionPoint(body.getTerminator());
    DbReleaseOp::create(builder, loc, view);
  }

  /// Second-run refinement: the mode of each acquire follows what the task does.
  void refreshModes(EdtOp task) {
    Block &body = task.getBody().front();
    for (auto [dep, view] : llvm::zip(task.getDeps(), body.getArguments())) {
      auto acq = dep.getDefiningOp<DbAcquireOp>();
      if (!acq)
        continue;
      MemrefUse use;
      for (Operation *user : view.getUsers())
        if (!isa<DbReleaseOp>(user))
          accumulateUse(user, view, use);
      if (acq.getMode() == ArtsMode::concurrent && use.writes) {
        // Concurrent writers share one payload on a node, where atomics and critical
        // sections order them; on several nodes each works on a copy merged byte by
        // byte, which loses updates.
        if (!use.atomic || moduleNodes(getOperation()) <= 1)
          continue;
        CARTS_DEBUG("create-dbs", acq) << "acquire mode=inout instead of concurrent: the "
                                          "task updates it atomically or in a critical "
                                          "section, and copies on other nodes would not "
                                          "see each other's updates\n";
      }
      acq.setMode(modeFor(use));
    }
  }

  /// Code outside tasks uses the host view; deallocations free the table.
  void retireOriginal(Operation *original, Datablock &db) {
    Value old = original->getResult(0);
    OpBuilder builder(original->getContext());
    for (Operation *user : llvm::make_early_inc_range(old.getUsers())) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        builder.setInsertionPoint(dealloc);
        DbFreeOp::create(builder, dealloc.getLoc(), db.alloc.getGuids(), db.alloc.getPtrs());
        dealloc.erase();
      }
    }
    if (isa<memref::AllocaOp>(original)) {
      builder.setInsertionPoint(original->getBlock()->getTerminator());
      DbFreeOp::create(builder, original->getLoc(), db.alloc.getGuids(), db.alloc.getPtrs());
    }
    old.replaceAllUsesWith(db.hostView);
    // The element sizes of the table may use the original's operands: keep them.
    original->erase();
  }

  /// A table no task writes is read-only.
  void refreshAllocMode(DbAllocOp alloc) {
    bool written = false;
    for (Operation *user : alloc.getPtrs().getUsers())
      if (auto acq = dyn_cast<DbAcquireOp>(user))
        written |= acq.getMode() != ArtsMode::in;
    MLIRContext *ctx = alloc.getContext();
    alloc.setModeAttr(ArtsModeAttr::get(ctx, written ? ArtsMode::inout : ArtsMode::in));
    alloc.setDbModeAttr(DbModeAttr::get(ctx, written ? DbMode::write : DbMode::read));
  }

  /// One `db` line per acquire: what each task gets of each datablock.
  void reportAcquires() {
    if (!isDebugChannelOn("db"))
      return;
    getOperation()->walk([&](DbAcquireOp acq) {
      auto alloc = acq.getSourcePtrs().getDefiningOp<DbAllocOp>();
      auto &os = debugLine("db", acq);
      os << "acquire " << describeType(acq.getPtrs().getType()) << " mode="
         << stringifyArtsMode(acq.getMode());
      if (alloc)
        os << " partition=" << stringifyPartitionMode(alloc.getPartition());
      if (acq.getFullRange())
        os << " full-range";
      if (!acq.getOffsets().empty())
        os << " offsets=" << acq.getOffsets().size() << "d";
      os << "\n";
    });
  }
};
} // namespace
