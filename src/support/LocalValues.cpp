//===- LocalValues.cpp - values of local variables, compared and hoisted --===//

#include "support/LocalValues.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::arts;

bool mlir::arts::comesBefore(Operation *a, Operation *b) {
  for (Operation *x = a; x && x->getBlock(); x = x->getParentOp())
    if (Operation *y = x->getBlock()->findAncestorOpInBlock(*b))
      return x != y && x->isBeforeInBlock(y);
  return false;
}

bool mlir::arts::isLocalSlot(Value memref) {
  auto alloca = memref.getDefiningOp<memref::AllocaOp>();
  if (!alloca || alloca.getType().getRank() != 0)
    return false;
  return llvm::all_of(alloca->getUses(), [](OpOperand &use) {
    if (isa<memref::LoadOp>(use.getOwner()))
      return true;
    auto store = dyn_cast<memref::StoreOp>(use.getOwner());
    return store && store.getValueToStore() != use.get();
  });
}

bool mlir::arts::storedBetween(Value slot, Operation *from, Operation *to) {
  Operation *outerFrom = from, *outerTo = nullptr;
  for (; outerFrom && outerFrom->getBlock(); outerFrom = outerFrom->getParentOp())
    if ((outerTo = outerFrom->getBlock()->findAncestorOpInBlock(*to)))
      break;
  if (!outerTo)
    return true;
  Block *common = outerFrom->getBlock();
  for (Operation *user : slot.getUsers()) {
    if (!isa<memref::StoreOp>(user))
      continue;
    // A store outside the common block runs before or after both.
    Operation *outerStore = common->findAncestorOpInBlock(*user);
    if (!outerStore)
      continue;
    bool afterFrom = outerStore == outerFrom ? outerFrom != from
                                             : outerFrom->isBeforeInBlock(outerStore);
    bool beforeTo =
        outerStore == outerTo ? outerTo != to : outerStore->isBeforeInBlock(outerTo);
    if (afterFrom && beforeTo)
      return true;
  }
  return false;
}

Value mlir::arts::slotReadBy(Value v) {
  auto load = v.getDefiningOp<memref::LoadOp>();
  return load && isLocalSlot(load.getMemRef()) ? load.getMemRef() : Value();
}

bool mlir::arts::sameValue(Value a, Value b, unsigned depth) {
  if (a == b)
    return true;
  if (a.getType() != b.getType() || depth > 8)
    return false;
  std::optional<int64_t> ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  if (ca || cb)
    return ca && cb && *ca == *cb;
  Operation *da = a.getDefiningOp(), *db = b.getDefiningOp();
  if (Value slot = slotReadBy(a); slot && slot == slotReadBy(b)) {
    if (comesBefore(db, da))
      std::swap(da, db);
    return !storedBetween(slot, da, db);
  }
  if (!da || !db || da->getName() != db->getName() ||
      da->getAttrDictionary() != db->getAttrDictionary() ||
      da->getNumOperands() != db->getNumOperands() || da->getNumRegions() != 0 ||
      !isMemoryEffectFree(da) || cast<OpResult>(a).getResultNumber() != cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [x, y] : llvm::zip(da->getOperands(), db->getOperands()))
    if (!sameValue(x, y, depth + 1))
      return false;
  return true;
}

bool mlir::arts::hoistable(Value v, Operation *point, DominanceInfo &dom, NotHoistable &why,
                           unsigned depth) {
  if (dom.properlyDominates(v, point))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def) {
    auto *owner = cast<BlockArgument>(v).getOwner()->getParentOp();
    why = isa_and_present<LoopLikeOpInterface>(owner) ? NotHoistable::LoopVariable
                                                      : NotHoistable::Unavailable;
    return false;
  }
  if (Value slot = slotReadBy(v)) {
    if (!dom.properlyDominates(slot, point) || !comesBefore(point, def)) {
      why = NotHoistable::Unavailable;
      return false;
    }
    if (storedBetween(slot, point, def)) {
      why = NotHoistable::AssignedVariable;
      return false;
    }
    return true;
  }
  if (depth > 16 || def->getNumRegions() != 0 || !isMemoryEffectFree(def)) {
    why = NotHoistable::Unavailable;
    return false;
  }
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return hoistable(operand, point, dom, why, depth + 1);
  });
}

Value mlir::arts::hoist(Value v, OpBuilder &builder, IRMapping &clones, DominanceInfo &dom) {
  Operation *point = &*builder.getInsertionPoint();
  if (dom.properlyDominates(v, point))
    return v;
  if (Value done = clones.lookupOrNull(v))
    return done;
  Operation *def = v.getDefiningOp();
  for (Value operand : def->getOperands())
    clones.map(operand, hoist(operand, builder, clones, dom));
  Operation *copy = builder.clone(*def, clones);
  return copy->getResult(cast<OpResult>(v).getResultNumber());
}
