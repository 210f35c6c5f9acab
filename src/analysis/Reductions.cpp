//===- Reductions.cpp - reduction matching --------------------------------===//
//
// A location loaded, combined and stored back by every iteration (or an
// if-guarded compare-and-store, for min and max) is a reduction.
//
//===----------------------------------------------------------------------===//

#include "analysis/MetadataCollector.h"
#include "analysis/ReductionOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::arts;

namespace mlir::arts::metadata {

Value stripValueCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

std::optional<StringRef> combiningKind(Operation *op) {
  if (std::optional<ReductionKind> kind = combiningKindOf(op, /*subtractionAdds=*/true))
    return stringifyReductionKind(*kind);
  return std::nullopt;
}

/// Whether every use of `v`, seen through value casts, is by one of `users`.
bool usedOnlyBy(Value v, ArrayRef<Operation *> users) {
  for (Operation *user : v.getUsers()) {
    if (llvm::is_contained(users, user))
      continue;
    bool isCast =
        isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(user);
    if (!isCast || !usedOnlyBy(user->getResult(0), users))
      return false;
  }
  return true;
}

/// A compare of `value` and `partial` whose holding keeps `value` (`keepsValue`)
/// or `partial` (else): max or min (umax or umin for an unsigned compare), when
/// it keeps the larger or the smaller one.
static std::optional<StringRef> compareKind(Value condition, Value value, Value partial,
                                            bool keepsValue,
                                            function_ref<bool(Value, Value)> same) {
  std::optional<MinMaxCompare> cmp = minMaxCompare(condition.getDefiningOp());
  if (!cmp)
    return std::nullopt;
  if (same(cmp->lhs, value) && same(cmp->rhs, partial))
    return stringifyReductionKind(minMaxKind(*cmp, /*keepsLhs=*/keepsValue));
  if (same(cmp->lhs, partial) && same(cmp->rhs, value))
    return stringifyReductionKind(minMaxKind(*cmp, /*keepsLhs=*/!keepsValue));
  return std::nullopt;
}

/// Whether `a` and `b` hold the same value: the same SSA value (up to casts),
/// or two loads of the same element with no write to that array, and no
/// opaque call, between them.
bool MetadataCollector::sameLoadedValue(Value a, Value b) {
  a = stripValueCasts(a);
  b = stripValueCasts(b);
  if (a == b)
    return true;
  Operation *first = a.getDefiningOp(), *second = b.getDefiningOp();
  if (!first || !second || !isa<memref::LoadOp, affine::AffineLoadOp>(first) ||
      !isa<memref::LoadOp, affine::AffineLoadOp>(second))
    return false;
  if (dominance.properlyDominates(second, first))
    std::swap(first, second);
  else if (!dominance.properlyDominates(first, second))
    return false;
  auto accessOf = [&](Operation *op) -> const Access * {
    auto it = accessesOfOp.find(op);
    return it == accessesOfOp.end() ? nullptr : &accesses[it->second.front()];
  };
  const Access *x = accessOf(first), *y = accessOf(second);
  if (!x || !y || x->root != y->root || x->layer != y->layer || !x->exact || !y->exact ||
      x->dims.size() != y->dims.size() || !llvm::equal(x->dims, y->dims) ||
      llvm::any_of(x->dims, [](const IndexForm &f) { return !f.known; }))
    return false;
  // Only ops of `first`'s block between the two (or inside the op holding `second`) run between.
  Block *block = first->getBlock();
  Operation *secondAnc = block->findAncestorOpInBlock(*second);
  auto between = [&](Operation *op) {
    Operation *anc = block->findAncestorOpInBlock(*op);
    return anc && first->isBeforeInBlock(anc) &&
           (anc == secondAnc || anc->isBeforeInBlock(secondAnc));
  };
  for (unsigned id : accessesOfRoot.lookup(x->root))
    if (accesses[id].write && between(accesses[id].op))
      return false;
  for (const Effect &effect : effects)
    if (between(effect.op))
      return false;
  return true;
}

/// Every access of the location is part of an update `x = x op y` (or
/// `if (y > x) x = y`) with one operator: a reduction of that kind.
std::optional<std::string> MetadataCollector::matchReduction(ArrayRef<const Access *> group) {
  // The reads: each must be the partial value of exactly one update.
  DenseMap<Operation *, const Access *> reads;
  for (const Access *a : group) {
    if (a->read && a->write)
      return std::nullopt; // an atomic update: fine to run in parallel, but not this pattern
    if (a->read) {
      if (!isa<memref::LoadOp, affine::AffineLoadOp>(a->op))
        return std::nullopt;
      reads[a->op] = a;
    }
  }
  auto partialLoad = [&](Value v) -> Operation * {
    Operation *def = stripValueCasts(v).getDefiningOp();
    return def && reads.count(def) ? def : nullptr;
  };
  auto sameValue = [&](Value a, Value b) { return sameLoadedValue(a, b); };
  std::optional<StringRef> kind;
  DenseSet<Operation *> consumed;
  for (const Access *w : group) {
    if (!w->write)
      continue;
    Value stored;
    if (auto store = dyn_cast<memref::StoreOp>(w->op))
      stored = store.getValue();
    else if (auto store = dyn_cast<affine::AffineStoreOp>(w->op))
      stored = store.getValue();
    else
      return std::nullopt;
    Operation *combine = stripValueCasts(stored).getDefiningOp();
    std::optional<StringRef> updateKind;
    Operation *partial = nullptr;
    if (combine && combine->getNumOperands() == 2 && usedOnlyBy(combine->getResult(0), {w->op})) {
      Value lhs = combine->getOperand(0), rhs = combine->getOperand(1);
      Operation *lhsLoad = partialLoad(lhs), *rhsLoad = partialLoad(rhs);
      bool isSub = isa<arith::SubFOp, arith::SubIOp>(combine);
      if (auto k = combiningKind(combine)) {
        if (lhsLoad && !rhsLoad)
          updateKind = k, partial = lhsLoad;
        else if (rhsLoad && !lhsLoad && !isSub)
          updateKind = k, partial = rhsLoad;
        if (partial && !usedOnlyBy(partial->getResult(0), {combine}))
          updateKind = std::nullopt;
      }
    }
    if (auto select = dyn_cast_or_null<arith::SelectOp>(combine);
        select && usedOnlyBy(select.getResult(), {w->op})) {
      // `x = cmp(y, x) ? y : x`: the partial value feeds the compare and the select.
      Operation *trueLoad = partialLoad(select.getTrueValue());
      Operation *falseLoad = partialLoad(select.getFalseValue());
      Operation *cmp = select.getCondition().getDefiningOp();
      if (cmp && usedOnlyBy(select.getCondition(), {select}) &&
          (trueLoad != nullptr) != (falseLoad != nullptr)) {
        partial = trueLoad ? trueLoad : falseLoad;
        Value value = trueLoad ? select.getFalseValue() : select.getTrueValue();
        Value partialValue = partial->getResult(0);
        if (usedOnlyBy(partialValue, {cmp, select})) {
          // `cmp ? partial : value` keeps the partial value when the compare holds.
          updateKind = compareKind(select.getCondition(), value, partialValue,
                                   /*keepsValue=*/!trueLoad, sameValue);
        }
      }
    }
    if (!updateKind) {
      // `if (cmp(y, x)) x = y`: a conditional store of the winning value.
      auto ifOp = dyn_cast<scf::IfOp>(w->op->getParentOp());
      if (ifOp && w->op->getBlock() == ifOp.thenBlock()) {
        Operation *cmp = ifOp.getCondition().getDefiningOp();
        if (cmp && cmp->getNumOperands() == 2) {
          for (Value operand : cmp->getOperands()) {
            Operation *load = partialLoad(operand);
            if (!load || !dominance.properlyDominates(load, ifOp) ||
                !usedOnlyBy(load->getResult(0), {cmp}) ||
                !usedOnlyBy(ifOp.getCondition(), {ifOp}))
              continue;
            if (auto k = compareKind(ifOp.getCondition(), stored, load->getResult(0),
                                     /*keepsValue=*/true, sameValue))
              updateKind = k, partial = load;
          }
        }
      }
    }
    if (!updateKind || !partial || (kind && *kind != *updateKind) ||
        !consumed.insert(partial).second)
      return std::nullopt;
    kind = updateKind;
  }
  if (!kind || consumed.size() != reads.size())
    return std::nullopt;
  return kind->str();
}

} // namespace mlir::arts::metadata
