//===- RaisePointerTables.cpp - pointer-of-pointer arrays to N-D memrefs ---===//
//
// Described in Passes.td (`RaisePointerTables`); below, how it does it.
//
// A pointer table is what `float ***a = malloc(..)` plus loops of row mallocs
// become: a memref.alloc of memref<?xmemref<?xmemref<?xf32>>>, scf.for loops
// allocating and storing the rows, chained loads to reach an element, loops of
// deallocs to free it. Each table becomes one
//     memref.alloc(%d0, %d1, %d2) : memref<?x?x?xf32>
// at the place of the outer allocation (the row sizes are hoisted there),
// every element access `load(load(load(A)[i])[j])[k]` becomes `A3[i, j, k]`,
// the row allocations, their init loops and the row frees disappear, the
// frees of the outer array free the N-D one and null checks of the table or of
// a row test the N-D array. Row sizes may be read from local variables that
// are not assigned while the rows are allocated (`int n; n = atoi(..)` lives
// in memory). Every table is checked before any is rewritten; a table that
// cannot be raised exactly (a row passed to a call left in place, stored into
// other memory, rows of different sizes, rows not allocated for every index)
// is reported at the offending op and the pass fails. Helpers that allocate
// tables are inlined by arts-inline-helpers first, so a table and its rows
// sit in one function.
//
//===----------------------------------------------------------------------===//

#include "support/Debug.h"
#include "support/LocalValues.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_RAISEPOINTERTABLES
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

/// The stage's channel: both of its passes print there.
static constexpr llvm::StringLiteral kChannel = "canonicalize-memrefs";

/// The location of the outermost call an op was inlined through (itself if none).
static Location outermostCaller(Location loc) {
  while (auto site = dyn_cast<CallSiteLoc>(loc))
    loc = site.getCaller();
  return loc;
}

/// The levels of a pointer table type, outermost first:
/// memref<?xmemref<?xf32>> -> [memref<?xmemref<?xf32>>, memref<?xf32>].
static SmallVector<MemRefType> tableLevels(MemRefType type) {
  SmallVector<MemRefType> levels{type};
  while (auto inner = dyn_cast<MemRefType>(levels.back().getElementType()))
    levels.push_back(inner);
  return levels;
}

/// Rows of 4 KiB, or any multiple of it, put an element and its neighbours in the rows above
/// and below at addresses 4 KiB apart: the same L1 set, and loads the core takes for
/// aliases of earlier stores. The row tables a program mallocs row by row sit a malloc header
/// apart and escape that; a raised array is one allocation, so such rows get 64 bytes more
/// (unused: every access goes through the program's own indices). A float 5-point Jacobi
/// over 1024 x 1024 on one thread of a 16-core Xeon: 0.107 s at 4 KiB rows, 0.067 s at
/// 1000 columns, gcc's rows 0.068 s.
static void padRows(OpBuilder &builder, Location loc, Type element, SmallVector<int64_t> &shape,
                    SmallVector<Value> &dynamicSizes) {
  if (shape.size() < 2 || !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  if (bytes > 64)
    return;
  constexpr int64_t kPage = 4096, kPad = 64;
  if (!ShapedType::isDynamic(shape.back())) {
    if (shape.back() > 0 && (shape.back() * bytes) % kPage == 0)
      shape.back() += kPad / bytes;
    return;
  }
  Value cols = dynamicSizes.back();
  auto c = [&](int64_t v) { return arith::ConstantIndexOp::create(builder, loc, v).getResult(); };
  Value rowBytes = arith::MulIOp::create(builder, loc, cols, c(bytes));
  Value rem = arith::RemUIOp::create(builder, loc, rowBytes, c(kPage));
  Value aligned = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, rem, c(0));
  Value padded = arith::AddIOp::create(builder, loc, cols, c(kPad / bytes));
  dynamicSizes.back() = arith::SelectOp::create(builder, loc, aligned, padded, cols);
}

static bool isPointerTable(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isa<MemRefType>(memref.getElementType());
}

namespace {
/// An element access through a row: a load or store on a last-level row,
/// with the indices that selected the row.
struct RowAccess {
  Operation *op;
  SmallVector<Value> outerIndices;
};

/// A row of the table: the table itself (level 0), a row loaded out of it, or
/// a row allocation together with the store that puts it into its parent.
struct Row {
  Value value;
  unsigned level;
  SmallVector<Value> indices;
  memref::StoreOp placement;
};

/// Everything needed to rewrite one table, gathered before any IR changes.
struct TablePlan {
  memref::AllocOp table;
  SmallVector<MemRefType> levels;
  /// placements[k]: the store putting the rows of level k + 1 into level k.
  SmallVector<memref::StoreOp> placements;
  /// rowIndices[k]: the indices of the placed row of level k + 1.
  SmallVector<SmallVector<Value>> rowIndices;
  /// The size of each dimension of the N-D array (null when static).
  SmallVector<Value> sizes;
  SmallVector<memref::LoadOp> rowLoads;
  SmallVector<RowAccess> accesses;
  SmallVector<memref::DeallocOp> rowFrees, tableFrees;
  SmallVector<memref::ExtractAlignedPointerAsIndexOp> nullChecks;
  /// Depend items of tasks naming the table: they name the N-D array instead.
  SmallVector<OpOperand *> taskDepends;

  unsigned rank() const { return levels.size(); }
  memref::AllocOp rowAlloc(unsigned level) {
    return placements[level - 1].getValueToStore().getDefiningOp<memref::AllocOp>();
  }
};

class TableRaiser {
public:
  TableRaiser(ModuleOp module, bool strict) : module(module), dom(module), strict(strict) {}

  /// Plans every table of the module; reports every table it cannot raise.
  LogicalResult planAll();
  /// Rewrites the planned tables (only after planAll succeeded).
  void raiseAll();

private:
  LogicalResult plan(memref::AllocOp table);
  LogicalResult collectRows(TablePlan &plan);
  LogicalResult checkPlacement(TablePlan &plan, unsigned level);
  LogicalResult checkSizes(TablePlan &plan);
  LogicalResult checkAccesses(TablePlan &plan);
  InFlightDiagnostic error(TablePlan &plan, Operation *at);

  ModuleOp module;
  DominanceInfo dom;
  bool strict;
  SmallVector<TablePlan, 0> plans;
  llvm::DenseSet<Operation *> placedRows;
};
} // namespace

InFlightDiagnostic TableRaiser::error(TablePlan &plan, Operation *at) {
  InFlightDiagnostic diag = at->emitError();
  diag << "cannot raise " << plan.levels.front() << ": ";
  if (at != plan.table.getOperation())
    diag.attachNote(plan.table.getLoc()) << "array allocated here";
  return diag;
}

/// Follows the uses of the table and of every row reached from it.
LogicalResult TableRaiser::collectRows(TablePlan &plan) {
  unsigned last = plan.rank() - 1;
  plan.placements.assign(last, nullptr);
  plan.rowIndices.assign(last, {});
  SmallVector<Row> worklist{{plan.table.getResult(), 0, {}, nullptr}};
  for (size_t next = 0; next < worklist.size(); ++next) {
    Row row = worklist[next];
    for (OpOperand &use : row.value.getUses()) {
      Operation *user = use.getOwner();
      auto deeper = [&](Value index) {
        SmallVector<Value> indices = row.indices;
        indices.push_back(index);
        return indices;
      };
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        if (row.level == last) {
          plan.accesses.push_back({load, row.indices});
        } else {
          plan.rowLoads.push_back(load);
          worklist.push_back({load.getResult(), row.level + 1, deeper(load.getIndices()[0]), nullptr});
        }
        continue;
      }
      if (auto store = dyn_cast<memref::StoreOp>(user)) {
        if (use.getOperandNumber() != store.getMemrefMutable().getOperandNumber()) {
          if (store == row.placement)
            continue;
          return error(plan, store) << (row.level == 0 ? "the array" : "a row")
                                    << " is stored into other memory";
        }
        if (row.level == last) {
          plan.accesses.push_back({store, row.indices});
          continue;
        }
        auto rowAlloc = store.getValueToStore().getDefiningOp<memref::AllocOp>();
        if (!rowAlloc)
          return error(plan, store) << "a row that is not a fresh allocation is stored into it";
        if (memref::StoreOp first = plan.placements[row.level]) {
          memref::StoreOp second = store;
          if (comesBefore(second, first))
            std::swap(first, second);
          InFlightDiagnostic diag = error(plan, second);
          diag << "the rows of dimension " << row.level + 1
               << " are allocated by more than one store";
          diag.attachNote(first.getLoc()) << "rows of dimension " << row.level + 1
                                          << " also allocated here";
          return diag;
        }
        if (!placedRows.insert(rowAlloc).second)
          return error(plan, store) << "this row is stored into more than one place";
        plan.placements[row.level] = store;
        plan.rowIndices[row.level] = deeper(store.getIndices()[0]);
        worklist.push_back({rowAlloc.getResult(), row.level + 1, plan.rowIndices[row.level], store});
        continue;
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        (row.level == 0 ? plan.tableFrees : plan.rowFrees).push_back(dealloc);
        continue;
      }
      if (auto task = dyn_cast<omp::TaskOp>(user); task && row.level == 0 &&
          llvm::is_contained(task.getDependVars(), use.get())) {
        plan.taskDepends.push_back(&use);
        continue;
      }
      // `a == NULL`, `a[i] != NULL`: the N-D array answers for its rows.
      if (auto pointer = dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(user)) {
        plan.nullChecks.push_back(pointer);
        continue;
      }
      InFlightDiagnostic diag = error(plan, user);
      diag << (row.level == 0 ? "the array" : "a row");
      if (auto call = dyn_cast<CallOpInterface>(user)) {
        diag << " is passed to a call that is not inlined";
        if (auto callee = dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee()))
          diag << " (" << callee << ")";
      } else if (user->hasTrait<OpTrait::ReturnLike>()) {
        diag << " is returned by '" << user->getName() << "'";
      } else {
        diag << " is used by '" << user->getName() << "'";
      }
      return diag;
    }
  }
  for (unsigned level = 1; level <= last; ++level)
    if (!plan.placements[level - 1])
      return error(plan, plan.table) << "no row of dimension " << level << " is ever allocated";
  return success();
}

/// The rows of `level` must be allocated once for every index of the outer
/// dimensions: their store sits directly in `level` nested scf.for loops, the
/// p-th of which runs its induction variable, the p-th row index, over the
/// whole of dimension p.
LogicalResult TableRaiser::checkPlacement(TablePlan &plan, unsigned level) {
  memref::StoreOp store = plan.placements[level - 1];
  ArrayRef<Value> indices = plan.rowIndices[level - 1];
  Block *tableBlock = plan.table->getBlock();
  SmallVector<scf::ForOp> loops;
  for (Block *block = store->getBlock(); block != tableBlock;) {
    Operation *parent = block->getParentOp();
    if (!parent || isa<FunctionOpInterface>(parent))
      return error(plan, store) << "the rows of dimension " << level
                                << " are allocated outside the region of the array";
    // The rest of a body after an early return (`if (!x) return 1;` before the rows):
    // when it runs, the rows are allocated in order; when it does not, nothing uses them.
    bool restOfBody = isa<scf::IfOp>(parent) &&
                      artsDialect(parent)->getRestOfBodyAttrHelper().isAttrPresent(parent);
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      loops.insert(loops.begin(), loop);
    else if (!isa<memref::AllocaScopeOp, scf::ExecuteRegionOp>(parent) && !restOfBody)
      return error(plan, store) << "partially initialised: the rows of dimension " << level
                                << " are allocated under '" << parent->getName()
                                << "', not in loops over the whole array";
    block = parent->getBlock();
  }
  Operation *outermost = tableBlock->findAncestorOpInBlock(*store);
  if (!outermost || !plan.table->isBeforeInBlock(outermost))
    return error(plan, store) << "the rows of dimension " << level
                              << " are allocated before the array";
  if (loops.size() != level)
    return error(plan, store) << "partially initialised: the rows of dimension " << level
                              << " must be allocated in " << level << " nested loop"
                              << (level == 1 ? "" : "s") << " over the outer dimensions, found "
                              << loops.size();
  if (!loops.back()->isProperAncestor(plan.rowAlloc(level)))
    return error(plan, store) << "the rows of dimension " << level
                              << " share one allocation made outside their loop";
  for (unsigned dim = 0; dim < level; ++dim) {
    scf::ForOp loop = loops[dim];
    Value size = plan.sizes[dim];
    bool upperMatches = size ? sameValue(loop.getUpperBound(), size)
                             : getConstantIntValue(loop.getUpperBound()) == plan.levels[dim].getDimSize(0);
    if (loop.getInductionVar() != indices[dim] || getConstantIntValue(loop.getLowerBound()) != 0 ||
        getConstantIntValue(loop.getStep()) != 1 || !upperMatches)
      return error(plan, store) << "partially initialised: the rows of dimension " << level
                                << " are not allocated for every index of dimension " << dim;
  }
  return success();
}

/// Every row size must be computable where the table is allocated.
LogicalResult TableRaiser::checkSizes(TablePlan &plan) {
  for (unsigned level = 1; level < plan.rank(); ++level) {
    Value size = plan.sizes[level];
    NotHoistable why;
    if (!size || hoistable(size, plan.table, dom, why))
      continue;
    InFlightDiagnostic diag = error(plan, plan.rowAlloc(level));
    switch (why) {
    case NotHoistable::LoopVariable:
      return diag << "the rows of dimension " << level
                  << " have different sizes (the size depends on a loop variable)";
    case NotHoistable::AssignedVariable:
      return diag << "the rows of dimension " << level
                  << " may have different sizes (the size is read from a variable assigned "
                     "while the rows are allocated)";
    case NotHoistable::Unavailable:
      break;
    }
    return diag << "the size of dimension " << level
                << " is not available where the array is allocated";
  }
  return success();
}

/// The N-D array replaces the table where the table is allocated: every access
/// must come after it and see the indices of its row.
LogicalResult TableRaiser::checkAccesses(TablePlan &plan) {
  for (RowAccess &access : plan.accesses) {
    if (!dom.properlyDominates(plan.table.getOperation(), access.op))
      return error(plan, access.op) << "an element is accessed before the array is allocated";
    for (Value index : access.outerIndices)
      if (!dom.properlyDominates(index, access.op))
        return error(plan, access.op)
               << "an element is accessed through a row before the row is stored into the array";
  }
  return success();
}

LogicalResult TableRaiser::plan(memref::AllocOp table) {
  TablePlan plan;
  plan.table = table;
  plan.levels = tableLevels(table.getType());
  for (MemRefType level : plan.levels)
    if (level.getRank() != 1 || !level.getLayout().isIdentity() || level.getMemorySpace())
      return error(plan, table) << "level " << level
                                << " is not a one-dimensional memref with the default layout";
  if (failed(collectRows(plan)))
    return failure();

  plan.sizes.push_back(table.getType().isDynamicDim(0) ? table.getDynamicSizes()[0] : Value());
  for (unsigned level = 1; level < plan.rank(); ++level) {
    memref::AllocOp rowAlloc = plan.rowAlloc(level);
    plan.sizes.push_back(rowAlloc.getType().isDynamicDim(0) ? rowAlloc.getDynamicSizes()[0]
                                                            : Value());
  }
  for (unsigned level = 1; level < plan.rank(); ++level)
    if (failed(checkPlacement(plan, level)))
      return failure();
  if (failed(checkSizes(plan)) || failed(checkAccesses(plan)))
    return failure();
  plans.push_back(std::move(plan));
  return success();
}

/// Whether a task could see the array: the table, a row loaded from it, or a
/// variable it was stored into is used inside an OpenMP region. Arrays no task
/// sees may stay tables when they cannot be raised; nothing later needs them
/// N-D.
static bool seenByParallelCode(memref::AllocOp table) {
  SmallVector<Value> worklist{table.getResult()};
  llvm::DenseSet<Value> seen{table.getResult()};
  auto push = [&](Value v) {
    if (seen.insert(v).second)
      worklist.push_back(v);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      for (Operation *parent = user->getParentOp(); parent; parent = parent->getParentOp())
        if (isa<omp::OpenMPDialect>(parent->getDialect()))
          return true;
      if (isa<omp::OpenMPDialect>(user->getDialect()))
        return true;
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        if (isa<MemRefType>(load.getType()))
          push(load.getResult());
      } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
        if (store.getValueToStore() == value)
          push(store.getMemRef());
      } else if (isa<ViewLikeOpInterface, CastOpInterface>(user)) {
        for (Value result : user->getResults())
          push(result);
      }
    }
  }
  return false;
}

/// Plans `table` and reports why it cannot be raised, or, when no task sees
/// it, leaves it a table without a word.
static LogicalResult planOrKeep(memref::AllocOp table, bool strict,
                                llvm::function_ref<LogicalResult()> plan) {
  if (strict || seenByParallelCode(table))
    return plan();
  ScopedDiagnosticHandler quiet(table.getContext(), [](Diagnostic &) { return success(); });
  (void)plan();
  return success();
}

LogicalResult TableRaiser::planAll() {
  SmallVector<memref::AllocOp> tables, rows;
  module.walk([&](memref::AllocOp alloc) {
    if (!isPointerTable(alloc.getType()))
      return;
    bool isRow = llvm::any_of(alloc->getUses(), [&](OpOperand &use) {
      auto store = dyn_cast<memref::StoreOp>(use.getOwner());
      return store && store.getValueToStore() == alloc.getResult() &&
             isPointerTable(store.getMemRef().getType());
    });
    (isRow ? rows : tables).push_back(alloc);
  });
  bool ok = true;
  for (memref::AllocOp table : tables)
    ok &= succeeded(planOrKeep(table, strict, [&] { return plan(table); }));
  if (!ok)
    return failure();
  // A table stored into memory that is not a raised table: planning it as a
  // table of its own reports where.
  for (memref::AllocOp row : rows)
    if (!placedRows.contains(row))
      ok &= succeeded(planOrKeep(row, strict, [&] { return plan(row); }));
  return success(ok);
}

void TableRaiser::raiseAll() {
  // First every N-D array and every rewritten access, while all the old IR
  // (row sizes included) is still in place; then the erasures.
  SmallVector<memref::AllocOp> arrays;
  for (TablePlan &plan : plans) {
    OpBuilder builder(plan.table);
    IRMapping clones;
    SmallVector<int64_t> shape;
    SmallVector<Value> dynamicSizes;
    for (auto [level, size] : llvm::zip(plan.levels, plan.sizes)) {
      shape.push_back(level.getDimSize(0));
      if (size)
        dynamicSizes.push_back(hoist(size, builder, clones, dom));
    }
    Location loc = plan.table.getLoc();
    if (outermostCaller(loc) != loc)
      loc = FusedLoc::get(loc.getContext(), {outermostCaller(loc), loc});
    padRows(builder, loc, plan.levels.back().getElementType(), shape, dynamicSizes);
    auto type = MemRefType::get(shape, plan.levels.back().getElementType());
    auto array = memref::AllocOp::create(builder, loc, type, dynamicSizes, plan.table.getAlignmentAttr());
    arrays.push_back(array);

    for (RowAccess &access : plan.accesses) {
      builder.setInsertionPoint(access.op);
      SmallVector<Value> indices = access.outerIndices;
      if (auto load = dyn_cast<memref::LoadOp>(access.op)) {
        indices.append(load.getIndices().begin(), load.getIndices().end());
        auto element = memref::LoadOp::create(builder, load.getLoc(), array, indices,
                                              load.getNontemporal());
        load.replaceAllUsesWith(element.getResult());
      } else {
        auto store = cast<memref::StoreOp>(access.op);
        indices.append(store.getIndices().begin(), store.getIndices().end());
        memref::StoreOp::create(builder, store.getLoc(), store.getValueToStore(), array, indices,
                                store.getNontemporal());
      }
    }
    for (memref::DeallocOp free : plan.tableFrees) {
      builder.setInsertionPoint(free);
      memref::DeallocOp::create(builder, free.getLoc(), array);
    }
    for (memref::ExtractAlignedPointerAsIndexOp pointer : plan.nullChecks)
      pointer.getSourceMutable().assign(array);
    for (OpOperand *depend : plan.taskDepends)
      depend->set(array);
  }

  // Then the old accesses, rows and frees of every table, noting the loops
  // around them: those left holding nothing but index arithmetic and reads
  // of sizes are the init and free loops. They go last, innermost first, once
  // no table has anything left in them.
  enum LoopKind { Emptied, Free, Init }; // a loop with both kinds counts as the higher
  struct Tally {
    unsigned loads = 0, stores = 0;
    unsigned loops[3] = {0, 0, 0};
  };
  SmallVector<Tally> tallies(plans.size());
  llvm::MapVector<Operation *, std::pair<unsigned, LoopKind>> loops; // loop -> (plan, kind)
  for (auto [index, plan] : llvm::enumerate(plans)) {
    auto erase = [&, index = index](Operation *op, LoopKind kind) {
      for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
           loop = loop->getParentOfType<scf::ForOp>()) {
        auto [it, inserted] = loops.try_emplace(loop, index, kind);
        if (!inserted && it->second.first == index)
          it->second.second = std::max(it->second.second, kind);
      }
      op->erase();
    };
    SmallVector<memref::AllocOp> rowAllocs;
    for (unsigned level = 1; level < plan.rank(); ++level)
      rowAllocs.push_back(plan.rowAlloc(level));
    for (RowAccess &access : plan.accesses) {
      (isa<memref::LoadOp>(access.op) ? tallies[index].loads : tallies[index].stores) += 1;
      access.op->erase();
    }
    for (memref::DeallocOp free : plan.tableFrees)
      erase(free, Free);
    for (memref::DeallocOp free : plan.rowFrees)
      erase(free, Free);
    for (memref::StoreOp placement : plan.placements)
      erase(placement, Init);
    for (memref::LoadOp load : llvm::reverse(plan.rowLoads))
      erase(load, Emptied);
    for (memref::AllocOp rowAlloc : llvm::reverse(rowAllocs))
      erase(rowAlloc, Init);
    plan.table->erase();
  }

  auto depth = [](Operation *op) {
    unsigned d = 0;
    for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
      ++d;
    return d;
  };
  auto candidates = loops.takeVector();
  llvm::stable_sort(candidates, [&](auto &a, auto &b) { return depth(a.first) > depth(b.first); });
  for (auto &[loop, owner] : candidates) {
    if (loop->getNumResults() != 0 || !wouldOpBeTriviallyDead(loop))
      continue;
    tallies[owner.first].loops[owner.second] += 1;
    loop->erase();
  }

  for (auto [plan, array, tally] : llvm::zip(plans, arrays, tallies)) {
    unsigned frees = plan.rowFrees.size() + plan.tableFrees.size();
    CARTS_DEBUG(kChannel, array) << "raised " << plan.levels.front() << " to " << array.getType()
                                 << " (" << countOf(tally.loads, "load") << " and "
                                 << countOf(tally.stores, "store") << " rewritten, "
                                 << countOf(tally.loops[Init], "init loop") << ", "
                                 << countOf(tally.loops[Free], "free loop")
                                 << (tally.loops[Emptied]
                                         ? ", " + countOf(tally.loops[Emptied], "emptied loop")
                                         : std::string())
                                 << " and " << countOf(frees, "dealloc") << " removed)\n";
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct RaisePointerTables : arts::impl::RaisePointerTablesBase<RaisePointerTables> {
  using RaisePointerTablesBase::RaisePointerTablesBase;

  void runOnOperation() override {
    TableRaiser raiser(getOperation(), strict);
    if (failed(raiser.planAll()))
      return signalPassFailure();
    raiser.raiseAll();
  }
};
} // namespace
