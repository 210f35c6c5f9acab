//===- LoopFusion.cpp - adjacent parallel loops whose iterations stay apart -===//
//
// Description in Passes.td (LoopFusion). Only a loop that reads what the loop before it
// writes joins it: that removes a wait and a pass over memory, while independent loops
// already run side by side in one epoch (so a loop that also depends on the loop before
// those two, fused, would put them one after the other: it stays apart). Safety argument:
// OpenMP lets the iterations of each work-sharing loop run in any order, so only the
// barrier between the two loops orders anything, and it orders the first loop's accesses
// before the second's. The fused iteration i runs the first body's iteration i, then the
// second's, so the pairs it must keep ordered are those of different iterations: first(i)
// against second(j), i != j. Every such pair that may touch one element with a write among
// them indexes one dimension of the same allocation with the induction variable in both
// bodies, so iterations i and j touch different elements. Accesses of allocations made
// inside a body are the iteration's own. Two allocations made by different ops, or two
// different globals, are different memory; any other memref (an argument, a pointer loaded
// from memory, a view) might be any of them, so a write to it or beside it keeps the loops
// apart, and so does any other op with memory effects (a call).
//
//===----------------------------------------------------------------------===//

#include "analysis/IndexForms.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace mlir::arts {
#define GEN_PASS_DEF_LOOPFUSION
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
constexpr const char *kChannel = "loop-fusion";

/// One load or store of memory not allocated inside the loop (a memref loaded from memory
/// there is not). `indices` is empty when the access goes through a view of `root` (its
/// indices are not the root's).
struct Access {
  Value root;
  SmallVector<Value> indices;
  bool write;
};

/// Whether `op` may precede the loop in a fusable task: the task's own copies of values
/// (`firstprivate`: an alloca, a load of what it copies, a store into the task's alloca) and
/// side-effect-free ops.
bool isPrologueOp(Operation *op) {
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    auto alloca = store.getMemRef().getDefiningOp<memref::AllocaOp>();
    return alloca && alloca->getBlock() == op->getBlock();
  }
  if (isa<memref::AllocaOp, memref::LoadOp>(op))
    return true;
  return isPureLeafOp(op);
}

/// The parallel loop of a parallel task that holds only that loop and its barrier, after the
/// task's copies of values (what openmp-to-arts makes of `#pragma omp parallel for`, with
/// `firstprivate` copies), or null.
ForOp soleLoop(EdtOp edt) {
  if (edt.getEdtType() != EdtType::parallel || !edt.getDeps().empty() || edt.getNowait())
    return {};
  Block &body = edt.getBody().front();
  auto it = body.begin();
  while (it != body.end() && !isa<ForOp>(*it)) {
    if (!isPrologueOp(&*it))
      return {};
    ++it;
  }
  if (it == body.end())
    return {};
  auto loop = cast<ForOp>(*it);
  Operation *barrier = loop->getNextNode();
  if (!isa_and_nonnull<BarrierOp>(barrier) || barrier->getNextNode() != body.getTerminator())
    return {};
  if (!loop.getReductionAccs().empty() || loop.getChunk())
    return {};
  return loop;
}

/// The global `v` is (`memref.get_global`), or an empty name.
StringRef globalOf(Value v) {
  if (auto global = v.getDefiningOp<memref::GetGlobalOp>())
    return global.getName();
  return {};
}

/// Whether `v` is memory this pass can tell apart from others: an allocation or a global.
bool isKnownMemory(Value v) { return isAllocation(v) || !globalOf(v).empty(); }

/// Whether two roots are the same memory (one value, or one global named twice).
bool sameMemory(Value a, Value b) {
  return a == b || (!globalOf(a).empty() && globalOf(a) == globalOf(b));
}

/// The accesses of `loop`'s body to memory not allocated inside it, or why they cannot be
/// listed (an op with other memory effects).
std::optional<std::string> collectAccesses(ForOp loop, SmallVector<Access> &out) {
  std::optional<std::string> why;
  auto add = [&](Value memref, ValueRange indices, bool write) {
    Value root = viewRoot(memref);
    if (isAllocation(root) && loop->isAncestor(root.getDefiningOp()))
      return; // the iteration's own
    Access a{root, {}, write};
    if (root == memref)
      a.indices.assign(indices.begin(), indices.end());
    out.push_back(std::move(a));
  };
  loop.getBody().walk([&](Operation *op) {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      add(load.getMemRef(), load.getIndices(), false);
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      add(store.getMemRef(), store.getIndices(), true);
    else if (!isa<memref::AllocaOp>(op) && !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
             !isMemoryEffectFree(op)) {
      why = "'" + op->getName().getStringRef().str() + "' at " + locationString(op->getLoc()) +
            " has memory effects";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return why;
}

/// A work-sharing loop and the inner loops of its collapse clause (openmp-to-arts runs them
/// as `scf.for {arts.collapsed}`, each the only op of the body around it): what for-lowering
/// shares among the chunks is their product, so fusion keeps it a nest of the same shape.
struct Nest {
  ForOp loop;
  SmallVector<scf::ForOp> collapsed;

  explicit Nest(ForOp loop) : loop(loop) {
    Block *body = &loop.getBody().front();
    while (llvm::hasSingleElement(body->without_terminator())) {
      auto inner = dyn_cast<scf::ForOp>(body->front());
      if (!inner || !artsDialect(inner)->getCollapsedAttrHelper().isAttrPresent(inner))
        break;
      collapsed.push_back(inner);
      body = inner.getBody();
    }
  }
  /// One induction variable per level, outermost first.
  SmallVector<Value> ivs() {
    SmallVector<Value> result{loop.getInductionVar()};
    for (scf::ForOp inner : collapsed)
      result.push_back(inner.getInductionVar());
    return result;
  }
  /// The body of the innermost level.
  Block &innermost() {
    return collapsed.empty() ? loop.getBody().front() : *collapsed.back().getBody();
  }
};

/// Whether both accesses index, for every level of the nests, one dimension with that
/// level's induction variable (through integer casts: `a[(int)i]` is `a[i]` for the loop's
/// values).
bool sameIteration(const Access &a, ArrayRef<Value> ivsA, const Access &b, ArrayRef<Value> ivsB) {
  if (a.indices.empty() || a.indices.size() != b.indices.size())
    return false;
  for (auto [ivA, ivB] : llvm::zip(ivsA, ivsB)) {
    bool found = false;
    for (auto [x, y] : llvm::zip(a.indices, b.indices))
      found |= metadata::stripIntCasts(x) == ivA && metadata::stripIntCasts(y) == ivB;
    if (!found)
      return false;
  }
  return true;
}

/// The name of the memory `root` is, for a debug line.
std::string describe(Value root) {
  if (!globalOf(root).empty())
    return "the global @" + globalOf(root).str();
  if (isAllocation(root))
    return "the allocation at " + locationString(root.getDefiningOp()->getLoc());
  if (Operation *def = root.getDefiningOp())
    return "the memref of '" + def->getName().getStringRef().str() + "' at " +
           locationString(def->getLoc());
  return "a memref argument";
}

/// Why iteration i of `first` and iteration j != i of `second` may conflict, or nothing
/// (`a`, `b`: their accesses). The second task's copies, read before the first loop once
/// fused, must not read what it writes.
std::optional<std::string> conflict(Nest &first, Nest &second, ArrayRef<Access> a,
                                    ArrayRef<Access> b) {
  for (Operation &op : *second.loop->getBlock()) {
    auto load = dyn_cast<memref::LoadOp>(op);
    if (!load)
      continue;
    Value read = viewRoot(load.getMemRef());
    for (const Access &x : a)
      if (x.write && (sameMemory(x.root, read) || !isKnownMemory(x.root) || !isKnownMemory(read)))
        return "the second task copies " + describe(read) + " before its loop, and the first "
                                                            "loop may write it";
  }
  SmallVector<Value> ivsA = first.ivs(), ivsB = second.ivs();
  bool feeds = false;
  for (const Access &x : a)
    for (const Access &y : b) {
      feeds |= x.write && !y.write && sameMemory(x.root, y.root);
      if (!x.write && !y.write)
        continue;
      if (!sameMemory(x.root, y.root)) {
        if (isKnownMemory(x.root) && isKnownMemory(y.root))
          continue;
        Value unknown = isKnownMemory(x.root) ? y.root : x.root;
        Value other = unknown == x.root ? y.root : x.root;
        return describe(unknown) + " may be the memory of " + describe(other) +
               ", and one of the loops writes it";
      }
      if (!sameIteration(x, ivsA, y, ivsB))
        return describe(x.root) + " is written by one loop and accessed by the other at an "
                                  "index that is not the iteration's own";
    }
  if (!feeds)
    return std::string("it reads nothing the first loop writes (independent loops already "
                       "run side by side; one loop would only make fewer, larger tasks)");
  return std::nullopt;
}

/// `file:line:col` of a loop, with the call it was inlined from (matmul's one loop is every
/// call's).
std::string where(Operation *op) {
  if (auto site = dyn_cast<CallSiteLoc>(op->getLoc()))
    return locationString(site.getCallee()) + " (called at " + locationString(site.getCaller()) +
           ")";
  return locationString(op->getLoc());
}

/// The task after `edt` (`forward`) or before it, with only side-effect-free ops between,
/// or null.
EdtOp adjacentTask(EdtOp edt, bool forward) {
  auto step = [&](Operation *op) { return forward ? op->getNextNode() : op->getPrevNode(); };
  for (Operation *op = step(edt); op; op = step(op)) {
    if (auto task = dyn_cast<EdtOp>(op))
      return task;
    if (!isPureLeafOp(op))
      return {};
  }
  return {};
}

/// Whether some access of `a` and some access of `b` may touch the same memory with a write
/// among them (the two loops are ordered in any schedule).
bool dependent(ArrayRef<Access> a, ArrayRef<Access> b) {
  for (const Access &x : a)
    for (const Access &y : b)
      if ((x.write || y.write) &&
          (sameMemory(x.root, y.root) || !isKnownMemory(x.root) || !isKnownMemory(y.root)))
        return true;
  return false;
}

/// Why fusing the second loop into the first (accesses `b` and `a`) would order the first
/// after `before`, the loop before it, or nothing. Loops that do not depend on each other run side by side in one epoch; a
/// second loop that depends on both would, fused into the first, make the first wait for
/// `before` (SwiGLU after W1 and W3: fused into W3 it serialises W1 and W3).
std::optional<std::string> wouldSerialise(ForOp before, ArrayRef<Access> a,
                                          ArrayRef<Access> b) {
  SmallVector<Access> p;
  if (collectAccesses(before, p))
    return std::nullopt;
  if (dependent(p, a) || !dependent(p, b))
    return std::nullopt;
  return "it also depends on the loop at " + where(before) +
         ", which this one does not: fused, this loop would wait for that one instead of "
         "running beside it";
}

/// Whether a body has a per-iteration alloca_scope that yields values (not merged).
bool hasScopeWithResults(Block &body) {
  return llvm::any_of(body.without_terminator(), [](Operation &op) {
    return isa<memref::AllocaScopeOp>(op) && op.getNumResults();
  });
}

/// Why the two nests do not share their iteration space, or nothing: the same bounds and
/// steps level by level, and the same schedule.
std::optional<std::string> otherSpace(Nest &a, Nest &b) {
  auto same = [](Value x, Value y) { return isEqualConstantIntOrValue(x, y); };
  if (a.collapsed.size() != b.collapsed.size())
    return std::string("other collapse depth");
  if (!same(a.loop.getLowerBound(), b.loop.getLowerBound()) ||
      !same(a.loop.getUpperBound(), b.loop.getUpperBound()) ||
      !same(a.loop.getStep(), b.loop.getStep()) ||
      a.loop.getScheduleAttr() != b.loop.getScheduleAttr())
    return std::string("other bounds or schedule");
  for (auto [x, y] : llvm::zip(a.collapsed, b.collapsed))
    if (!same(x.getLowerBound(), y.getLowerBound()) ||
        !same(x.getUpperBound(), y.getUpperBound()) || !same(x.getStep(), y.getStep()))
      return std::string("other bounds of a collapsed loop");
  if (hasScopeWithResults(a.innermost()) || hasScopeWithResults(b.innermost()))
    return std::string("an alloca_scope yields values");
  return std::nullopt;
}

/// One alloca_scope around the whole body when the fused bodies had some: a scope that is
/// not the last op of its block stays through canonicalization, and one holding loops
/// cannot be lowered once they are branches. The stack an iteration takes is still given
/// back when it ends.
void mergeScopes(Block &body, Location loc) {
  SmallVector<memref::AllocaScopeOp> scopes;
  for (Operation &op : body.without_terminator())
    if (auto scope = dyn_cast<memref::AllocaScopeOp>(op))
      scopes.push_back(scope);
  if (scopes.empty())
    return;
  for (memref::AllocaScopeOp scope : scopes) {
    Block &inner = scope.getBodyRegion().front();
    body.getOperations().splice(scope->getIterator(), inner.getOperations(), inner.begin(),
                                std::prev(inner.end()));
    scope.erase();
  }
  OpBuilder builder(body.getTerminator());
  auto scope = memref::AllocaScopeOp::create(builder, loc, TypeRange{});
  Block *inner = builder.createBlock(&scope.getBodyRegion());
  auto end = memref::AllocaScopeReturnOp::create(builder, loc, ValueRange{});
  inner->getOperations().splice(end->getIterator(), body.getOperations(), body.begin(),
                                scope->getIterator());
}

/// Moves the ops between the two tasks above the first, the second task's copies before the
/// first loop, the second nest's innermost body into the first's after its own, and erases
/// the second task.
void fuse(EdtOp firstTask, Nest &first, EdtOp secondTask, Nest &second) {
  for (Operation *op = firstTask->getNextNode(); op != secondTask.getOperation();) {
    Operation *next = op->getNextNode();
    op->moveBefore(firstTask);
    op = next;
  }
  Block &prologue = *second.loop->getBlock();
  while (&prologue.front() != second.loop.getOperation())
    prologue.front().moveBefore(first.loop);
  for (auto [to, from] : llvm::zip(first.ivs(), second.ivs()))
    from.replaceAllUsesWith(to);
  Block &into = first.innermost(), &from = second.innermost();
  into.getOperations().splice(into.getTerminator()->getIterator(), from.getOperations(),
                              from.begin(), std::prev(from.end()));
  secondTask.erase();
  mergeScopes(into, first.loop.getLoc());
}

struct LoopFusion : arts::impl::LoopFusionBase<LoopFusion> {
  void runOnOperation() override {
    SmallVector<EdtOp> tasks;
    getOperation()->walk([&](EdtOp edt) { tasks.push_back(edt); });
    llvm::DenseSet<Operation *> erased;
    for (EdtOp task : tasks) {
      if (erased.contains(task))
        continue;
      ForOp loop = soleLoop(task);
      if (!loop)
        continue;
      while (EdtOp next = adjacentTask(task, /*forward=*/true)) {
        ForOp other = soleLoop(next);
        if (!other || next.getConcurrency() != task.getConcurrency() ||
            next.getWorkersAttr() != task.getWorkersAttr())
          break;
        Nest first(loop), second(other);
        SmallVector<Access> a, b;
        std::optional<std::string> why = otherSpace(first, second);
        if (!why)
          why = collectAccesses(first.loop, a);
        if (!why)
          why = collectAccesses(second.loop, b);
        if (!why)
          why = conflict(first, second, a, b);
        if (!why)
          if (EdtOp before = adjacentTask(task, /*forward=*/false))
            if (ForOp beforeLoop = soleLoop(before))
              why = wouldSerialise(beforeLoop, a, b);
        if (why) {
          CARTS_DEBUG(kChannel, nullptr) << where(other) << ": not fused with the loop at "
                                         << where(loop) << ": " << *why << "\n";
          break;
        }
        CARTS_DEBUG(kChannel, nullptr) << where(other) << ": fused into the loop at "
                                       << where(loop) << "\n";
        erased.insert(next);
        fuse(task, first, next, second);
      }
    }
  }
};
} // namespace
