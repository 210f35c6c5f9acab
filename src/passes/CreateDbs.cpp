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
    askingFunctions.reset();
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
    tokenTables.clear(); // keyed by this function's allocations (erased as they retire)
    findElementOrdered(func);
    for (EdtOp task : tasks) {
      if (failed(acquireCaptured(task, datablocks)))
        return failure();
      refreshModes(task);
      task.removeNoVerifyAttr();
    }
    takeTurns(func, tasks);
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
    // A view of a view (a cast of an element's view) comes in one layer at a time.
    for (bool sunk = true; sunk;) {
      sunk = false;
      for (Value captured : capturedMemrefs(task.getBody())) {
        Operation *cast = captured.getDefiningOp<memref::CastOp>();
        if (!cast && onlyNamedByDependItems(captured, task))
          cast = captured.getDefiningOp<memref::SubViewOp>(); // an element a depend item names
        if (auto view = captured.getDefiningOp<memref::ReinterpretCastOp>();
            !cast && view && view.getOffsets().empty() && view.getSizes().empty() &&
            view.getStrides().empty() && isa<MemRefType>(view.getSource().getType()) &&
            llvm::cast<MemRefType>(view.getSource().getType()).getRank() == 0)
          cast = view; // `&x` of a scalar as a one-element array: the scalar is the datablock
        if (!cast)
          continue;
        OpBuilder builder(&body, body.begin());
        Operation *inner = builder.clone(*cast);
        captured.replaceUsesWithIf(inner->getResult(0), [&](OpOperand &operand) {
          return task.getBody().isAncestor(operand.getOwner()->getParentRegion());
        });
        sunk = true;
      }
    }
  }

  /// True if the task uses `view` only in depend items (through casts).
  static bool onlyNamedByDependItems(Value view, EdtOp task) {
    return llvm::all_of(view.getUsers(), [&](Operation *user) {
      if (!task.getBody().isAncestor(user->getParentRegion()))
        return true;
      if (auto cast = dyn_cast<memref::CastOp>(user))
        return onlyNamedByDependItems(cast.getResult(), task);
      return isa<DependOp>(user);
    });
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

  /// The memref a depend item names, through casts and an element's view (`a[i]`).
  static Value dependTarget(DependOp depend) {
    Value target = depend.getTarget();
    while (true) {
      if (auto cast = target.getDefiningOp<memref::CastOp>())
        target = cast.getSource();
      else if (auto view = target.getDefiningOp<memref::SubViewOp>())
        target = view.getSource();
      else
        return target;
    }
  }

  /// A depend item on one element of a one-dimensional array (the front end's one-element
  /// view `a[i]`): its index, as an OpFoldResult; else null.
  static OpFoldResult elementIndex(DependOp depend) {
    Value target = depend.getTarget();
    while (auto cast = target.getDefiningOp<memref::CastOp>())
      target = cast.getSource();
    auto view = target.getDefiningOp<memref::SubViewOp>();
    if (!view || view.getSourceType().getRank() != 1 || view.getType().getRank() != 1 ||
        view.getStaticSizes()[0] != 1 || view.getStaticStrides()[0] != 1 ||
        view.getSource().getDefiningOp<memref::SubViewOp>())
      return {};
    return view.getMixedOffsets()[0];
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
      auto ordered = elementOrdered.find(def);
      if (ordered == elementOrdered.end()) {
        acquire(task, it->second.alloc, captured, ValueRange{zero});
        continue;
      }
      SmallVector<DependOp> items;
      for (Operation &op : task.getBody().front())
        if (auto depend = dyn_cast<DependOp>(op); depend && dependTarget(depend) == captured)
          items.push_back(depend);
      acquire(task, it->second.alloc, captured, ValueRange{zero}, /*orderedByTokens=*/true);
      acquireTokens(task, def, it->second, items, ordered->second);
    }
    return success();
  }

  // ------------------------------------------------------------------ element tokens
  //
  // OpenMP orders tasks by the addresses their depend items name, not by whole arrays. An
  // array that tasks order on only through items naming one element each (`depend(in:
  // v[i - 1], v[i]) depend(out: v[i + n])`) gets, on one node, a table of tokens beside
  // its datablock: a one-byte datablock per element (per element modulo kMaxTokens, which
  // only adds orderings), acquired by each item's task with the item's mode, while the
  // array itself is acquired `concurrent` (one payload shared on the node, as OpenMP's
  // memory is). The tokens order the tasks as the items do; the tasks never touch them.

  /// Tokens of one array at most (elements beyond share them, modulo this).
  static constexpr int64_t kMaxTokens = 1 << 16;

  /// Arrays ordered by element tokens in the function being converted -> the most element
  /// items one task has on it (the table's spare entries, see acquireTokens).
  llvm::DenseMap<Operation *, unsigned> elementOrdered;
  struct TokenTable {
    DbAllocOp alloc;
    Value elements; ///< tokens standing for elements (the spares follow them)
  };
  llvm::DenseMap<Operation *, TokenTable> tokenTables;

  /// The one-dimensional allocations of `func` that depend items name, on one node, where
  /// every item naming it names one element.
  void findElementOrdered(func::FuncOp func) {
    elementOrdered.clear();
    if (moduleNodes(getOperation()) > 1)
      return;
    llvm::DenseMap<Operation *, bool> eligible;
    func.walk([&](EdtOp task) {
      if (task.getEdtType() != EdtType::task)
        return;
      llvm::DenseMap<Operation *, unsigned> items;
      for (Operation &op : task.getBody().front()) {
        auto depend = dyn_cast<DependOp>(op);
        if (!depend)
          continue;
        Operation *def = dependTarget(depend).getDefiningOp();
        if (!isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(def))
          continue;
        bool element = bool(elementIndex(depend)) &&
                       cast<MemRefType>(def->getResult(0).getType()).getRank() == 1;
        auto [it, inserted] = eligible.try_emplace(def, element);
        it->second &= element;
        ++items[def];
      }
      for (auto [def, count] : items)
        elementOrdered[def] = std::max(elementOrdered.lookup(def), count);
    });
    // Items nested deeper (a task inside a task) are not in a body's top block: such an
    // array keeps ordering by the whole array.
    func.walk([&](DependOp depend) {
      if (Operation *def = dependTarget(depend).getDefiningOp())
        if (depend->getParentOp() != depend->getParentOfType<EdtOp>().getOperation())
          eligible[def] = false;
    });
    for (auto [def, ok] : eligible)
      if (!ok)
        elementOrdered.erase(def);
  }

  /// The token table of `def`, made after its datablock's allocation on first use.
  TokenTable &tokensOf(Operation *def, Datablock &db, unsigned spares) {
    auto [it, inserted] = tokenTables.try_emplace(def, TokenTable{});
    if (!inserted)
      return it->second;
    Location loc = def->getLoc();
    OpBuilder builder(db.alloc);
    builder.setInsertionPointAfter(db.alloc);
    Value length = db.alloc.getElementSizes()[0];
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value limit = arith::ConstantIndexOp::create(builder, loc, kMaxTokens);
    Value elements = arith::MaxUIOp::create(
        builder, loc, one, arith::MinUIOp::create(builder, loc, length, limit));
    Value count = arith::AddIOp::create(builder, loc, elements,
                                        arith::ConstantIndexOp::create(builder, loc, spares));
    DbAllocOp alloc = createTokens(builder, loc, count, PartitionMode::fine_grained);
    CARTS_DEBUG("create-dbs", def) << "depend items name single elements of it: a token per "
                                      "element (up to " << kMaxTokens << ", then shared) and "
                                   << spares << " spare, the array acquired concurrent\n";
    it->second = {alloc, elements};
    return it->second;
  }

  /// One token acquire per element item of `task` on `def`, made before the task. Two items
  /// of one task on one token would make the task wait for itself: an item whose token
  /// another item of the task already orders on as strongly (a write's, or an earlier
  /// read's) takes its own spare token instead (spare k for the k-th item, which no other
  /// item of the task uses; spares only add orderings).
  void acquireTokens(EdtOp task, Operation *def, Datablock &db, SmallVector<DependOp> items,
                     unsigned spares) {
    TokenTable &table = tokensOf(def, db, spares);
    Location loc = task.getLoc();
    OpBuilder builder(task);
    SmallVector<Value> tokens;
    SmallVector<bool> writes;
    for (DependOp item : items) {
      Value index = getValueOrCreateConstantIndexOp(builder, item.getLoc(), elementIndex(item));
      tokens.push_back(arith::RemUIOp::create(builder, item.getLoc(), index, table.elements));
      writes.push_back(item.getMode() != ArtsMode::in);
    }
    for (auto [k, item] : llvm::enumerate(items)) {
      Value taken; // another item of the task orders on this token at least as strongly
      for (size_t m = 0; m < items.size(); ++m) {
        bool stronger = writes[k] ? (writes[m] && m < k) : (m != k && (writes[m] || m < k));
        if (!stronger)
          continue;
        Value same = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, tokens[m],
                                           tokens[k]);
        taken = taken ? arith::OrIOp::create(builder, loc, taken, same).getResult() : same;
      }
      Value entry = tokens[k];
      if (taken) {
        Value spare = arith::AddIOp::create(builder, loc, table.elements,
                                            arith::ConstantIndexOp::create(builder, loc, k));
        entry = arith::SelectOp::create(builder, loc, taken, spare, tokens[k]);
      }
      Value one = arith::ConstantIndexOp::create(builder, loc, 1);
      acquireToken(builder, item.getLoc(), task, table.alloc,
                   writes[k] ? ArtsMode::inout : ArtsMode::in, ValueRange{entry},
                   ValueRange{one});
    }
  }

  /// A table of `count` one-byte datablocks that only order tasks (`order_only`).
  static DbAllocOp createTokens(OpBuilder &builder, Location loc, Value count,
                                PartitionMode partition) {
    MLIRContext *ctx = builder.getContext();
    Value route = arith::ConstantIntOp::create(builder, loc, builder.getI32Type(), 0);
    auto guidsType = MemRefType::get({ShapedType::kDynamic}, builder.getI64Type());
    auto ptrsType =
        MemRefType::get({ShapedType::kDynamic}, MemRefType::get({}, builder.getI8Type()));
    return DbAllocOp::create(builder, loc, guidsType, ptrsType,
                             ArtsModeAttr::get(ctx, ArtsMode::inout),
                             DbModeAttr::get(ctx, DbMode::write),
                             PartitionModeAttr::get(ctx, partition), route, ValueRange{count},
                             ValueRange{}, Value(), nullptr);
  }

  /// `task` acquires entries of the token table `tokens` (made at `builder`, before the
  /// task) with `mode`, marked `order_only`; it never touches them and releases them at its
  /// end.
  static void acquireToken(OpBuilder &builder, Location loc, EdtOp task, DbAllocOp tokens,
                           ArtsMode mode, ValueRange offsets, ValueRange sizes) {
    MLIRContext *ctx = builder.getContext();
    auto acq = DbAcquireOp::create(builder, loc, tokens.getGuids().getType(),
                                   tokens.getPtrs().getType(), ArtsModeAttr::get(ctx, mode),
                                   tokens.getGuids(), tokens.getPtrs(), ValueRange{}, offsets,
                                   sizes, nullptr, nullptr, nullptr);
    artsDialect(task)->getOrderOnlyAttrHelper().setAttr(acq, UnitAttr::get(ctx));
    task.getDepsMutable().append(acq.getPtrs());
    Block &body = task.getBody().front();
    BlockArgument view = body.addArgument(acq.getPtrs().getType(), loc);
    OpBuilder inner(body.getTerminator());
    DbReleaseOp::create(inner, loc, view);
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
  void acquire(EdtOp task, DbAllocOp alloc, Value captured, ValueRange indices,
               bool orderedByTokens = false) {
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
    // A task that asked its thread number (0 outside a team's region) may index per-thread
    // storage with it: its writes stay exclusive, as the threads' own slots would be.
    bool asksThread = asksThreadNumber(task);
    if (use.writes && asksThread) {
      mode = modeFor(use);
      CARTS_DEBUG("create-dbs", task) << "task that asks its thread number: its writes stay "
                                         "exclusive\n";
    } else if (use.writes && orderedByTokens) {
      mode = ArtsMode::concurrent;
      CARTS_DEBUG("create-dbs", task) << "task ordered by element tokens: acquire "
                                         "mode=concurrent\n";
    } else if (use.writes && !taskloop && task.getEdtType() == EdtType::task &&
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

  /// Tasks that ask their thread number (0 in a task here) take turns: each acquires one
  /// token of the function `inout`, so two of them never run at once and per-thread storage
  /// indexed by the number (a global array a helper updates too, which no datablock orders)
  /// is written by one at a time, as each thread's own slot would be. The token's
  /// allocation carries `order_only`; a task already holding it is left alone.
  void takeTurns(func::FuncOp func, ArrayRef<EdtOp> tasks) {
    SmallVector<EdtOp> asking;
    for (EdtOp task : tasks)
      if (task.getEdtType() == EdtType::task && asksThreadNumber(task) && !hasTurns(task))
        asking.push_back(task);
    if (asking.empty())
      return;
    MLIRContext *ctx = func.getContext();
    Location loc = func.getLoc();
    OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    DbAllocOp alloc = createTokens(builder, loc, one, PartitionMode::coarse);
    artsDialect(func)->getOrderOnlyAttrHelper().setAttr(alloc, UnitAttr::get(ctx));
    func.walk([&](func::ReturnOp ret) {
      OpBuilder at(ret);
      DbFreeOp::create(at, ret.getLoc(), alloc.getGuids(), alloc.getPtrs());
    });
    for (EdtOp task : asking) {
      OpBuilder before(task);
      acquireToken(before, task.getLoc(), task, alloc, ArtsMode::inout, ValueRange{},
                   ValueRange{});
      CARTS_DEBUG("create-dbs", task) << "task that asks its thread number: takes turns with "
                                         "the others that do (one token, inout)\n";
    }
  }

  static bool hasTurns(EdtOp task) {
    return llvm::any_of(task.getDeps(), [](Value dep) {
      auto acq = dep.getDefiningOp<DbAcquireOp>();
      auto alloc = acq ? acq.getSourcePtrs().getDefiningOp<DbAllocOp>() : nullptr;
      return alloc && artsDialect(alloc)->getOrderOnlyAttrHelper().isAttrPresent(alloc);
    });
  }

  /// Whether `task` asked its thread number, itself or in a function it calls (marked by
  /// openmp-to-arts, `asks_thread`).
  bool asksThreadNumber(EdtOp task) {
    ArtsDialect *arts = artsDialect(task);
    if (arts->getAsksThreadAttrHelper().isAttrPresent(task))
      return true;
    if (!askingFunctions) {
      // The functions that ask it, and those that call one of them, to a fixpoint.
      askingFunctions.emplace();
      SymbolTable symbols(getOperation());
      for (bool grew = true; grew;) {
        grew = false;
        getOperation()->walk([&](func::FuncOp fn) {
          if (askingFunctions->contains(fn))
            return;
          bool asks = arts->getAsksThreadAttrHelper().isAttrPresent(fn);
          fn.walk([&](func::CallOp call) {
            auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
            asks |= callee && askingFunctions->contains(callee);
          });
          if (asks)
            grew |= askingFunctions->insert(fn).second;
        });
      }
    }
    bool asks = false;
    task.getBody().walk([&](func::CallOp call) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(call, call.getCalleeAttr());
      asks |= callee && askingFunctions->contains(callee);
    });
    return asks;
  }
  std::optional<llvm::DenseSet<Operation *>> askingFunctions;

  /// Second-run refinement: the mode of each acquire follows what the task does.
  void refreshModes(EdtOp task) {
    Block &body = task.getBody().front();
    for (auto [dep, view] : llvm::zip(task.getDeps(), body.getArguments())) {
      auto acq = dep.getDefiningOp<DbAcquireOp>();
      if (!acq || artsDialect(acq)->getOrderOnlyAttrHelper().isAttrPresent(acq))
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

  void freeTokens(OpBuilder &builder, Location loc, Operation *original) {
    auto it = tokenTables.find(original);
    if (it != tokenTables.end())
      DbFreeOp::create(builder, loc, it->second.alloc.getGuids(), it->second.alloc.getPtrs());
  }

  /// Code outside tasks uses the host view; deallocations free the table.
  void retireOriginal(Operation *original, Datablock &db) {
    Value old = original->getResult(0);
    OpBuilder builder(original->getContext());
    for (Operation *user : llvm::make_early_inc_range(old.getUsers())) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        builder.setInsertionPoint(dealloc);
        DbFreeOp::create(builder, dealloc.getLoc(), db.alloc.getGuids(), db.alloc.getPtrs());
        freeTokens(builder, dealloc.getLoc(), original);
        dealloc.erase();
      }
    }
    if (isa<memref::AllocaOp>(original)) {
      builder.setInsertionPoint(original->getBlock()->getTerminator());
      DbFreeOp::create(builder, original->getLoc(), db.alloc.getGuids(), db.alloc.getPtrs());
      freeTokens(builder, original->getLoc(), original);
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
