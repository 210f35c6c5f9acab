//===- BlockSegments.cpp - task loops split where the block changes -------===//
//
// Part of edt-lowering (EdtLowering.cpp runs it before outlining); what it
// does is in BlockSegments.h.
//
//===----------------------------------------------------------------------===//

#include "passes/edt/BlockSegments.h"
#include "support/Debug.h"

#include "dialect/ArtsDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

using namespace mlir;
using namespace mlir::arts;

static constexpr llvm::StringLiteral kChannel = "edt-lowering";

/// True if `v` is an index known to be at least 1 here: a positive constant,
/// or the max of something with one (how a block size is computed).
static bool isKnownPositive(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c > 0;
  if (auto max = v.getDefiningOp<arith::MaxSIOp>())
    return isKnownPositive(max.getLhs()) || isKnownPositive(max.getRhs());
  if (auto max = v.getDefiningOp<arith::MaxUIOp>())
    return isKnownPositive(max.getLhs()) || isKnownPositive(max.getRhs());
  return false;
}

static bool sameDivisor(Value a, Value b) {
  if (a == b)
    return true;
  std::optional<int64_t> ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  return ca && cb && *ca == *cb;
}

/// The `iv / B` and `iv mod B` of `loop` for one divisor B defined outside the
/// loop and known to be positive (the first one met); empty if there is none.
static SmallVector<Operation *> blockSelections(scf::ForOp loop, Value &divisor) {
  SmallVector<Operation *> selections;
  Value iv = loop.getInductionVar();
  if (!iv.getType().isIndex() || loop.getNumResults() != 0)
    return selections;
  for (Operation *user : iv.getUsers()) {
    if (!isa<arith::DivUIOp, arith::RemUIOp>(user) || user->getOperand(0) != iv)
      continue;
    Value rhs = user->getOperand(1);
    if (!divisor) {
      if (!loop.isDefinedOutsideOfLoop(rhs) || !isKnownPositive(rhs))
        continue;
      divisor = rhs;
    }
    if (sameDivisor(rhs, divisor))
      selections.push_back(user);
  }
  return selections;
}

/// Moves before `loop` the pure ops inside its nested regions (an access
/// under an `scf.if`) whose operands are defined outside it: the selection of
/// a block for such an access is then made once per segment too, and LLVM
/// sees one loop-invariant block pointer (which it can vectorise with a
/// masked access) instead of a load of the table in every iteration.
static void hoistSpeculatableFromNestedRegions(scf::ForOp loop) {
  SmallVector<Operation *> candidates;
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getParentOp() != loop && op->getNumRegions() == 0 &&
        !op->hasTrait<OpTrait::IsTerminator>() && isPure(op))
      candidates.push_back(op);
  });
  for (Operation *op : candidates)
    if (llvm::all_of(op->getOperands(), [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      op->moveBefore(loop);
}

/// Splits `loop` into segments that stay in one block of B = `divisor` rows
/// (see BlockSegments.h) and hoists what no longer depends on the row out of
/// each segment's loop.
static void splitAtBlockBoundaries(scf::ForOp loop, Value divisor,
                                   ArrayRef<Operation *> selections) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Type index = b.getIndexType();
  Value hi = loop.getUpperBound(), step = loop.getStep();
  auto segments = scf::WhileOp::create(b, loc, TypeRange{index}, ValueRange{loop.getLowerBound()});

  Block *before = b.createBlock(&segments.getBefore(), {}, {index}, {loc});
  Value more = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, before->getArgument(0), hi);
  scf::ConditionOp::create(b, loc, more, before->getArguments());

  Block *after = b.createBlock(&segments.getAfter(), {}, {index}, {loc});
  Value start = after->getArgument(0);
  Value block = arith::DivUIOp::create(b, loc, start, divisor);
  Value offset = arith::RemUIOp::create(b, loc, start, divisor);
  Value base = arith::SubIOp::create(b, loc, start, offset);
  Value end = arith::MinSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, start, arith::SubIOp::create(b, loc, divisor, offset)),
      hi);
  // Below zero the unsigned quotient wraps at 0: a segment ends there too.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, start, zero);
  end = arith::SelectOp::create(b, loc, negative, arith::MinSIOp::create(b, loc, end, zero), end);
  auto inner = scf::ForOp::create(b, loc, start, end, step);
  inner.getRegion().takeBody(loop.getRegion());
  inner->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // The next segment starts at the first iteration at or after `end`.
  Value steps = b.createOrFold<arith::CeilDivUIOp>(
      loc, arith::SubIOp::create(b, loc, end, start), step);
  Value next = b.createOrFold<arith::AddIOp>(
      loc, start, b.createOrFold<arith::MulIOp>(loc, steps, step));
  scf::YieldOp::create(b, loc, next);
  loop.erase();

  Value iv = inner.getInductionVar();
  for (Operation *selection : selections) {
    if (isa<arith::DivUIOp>(selection)) {
      selection->getResult(0).replaceAllUsesWith(block);
    } else {
      OpBuilder sb(selection);
      selection->getResult(0).replaceAllUsesWith(
          arith::SubIOp::create(sb, selection->getLoc(), iv, base));
    }
    selection->erase();
  }
  moveLoopInvariantCode(cast<LoopLikeOpInterface>(inner.getOperation()));
  hoistSpeculatableFromNestedRegions(inner);
}

void mlir::arts::splitTaskLoopsAtBlockBoundaries(ModuleOp module) {
  SmallVector<scf::ForOp> loops;
  module.walk([&](scf::ForOp loop) {
    if (loop->getParentOfType<EdtOp>())
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    Value divisor;
    SmallVector<Operation *> selections = blockSelections(loop, divisor);
    if (selections.empty())
      continue;
    std::optional<int64_t> rows = getConstantIntValue(divisor);
    CARTS_DEBUG(kChannel, loop) << "loop split at block boundaries (blocks of "
                                << (rows ? std::to_string(*rows) : std::string("B"))
                                << " rows): " << selections.size()
                                << " div/rem of the index once per block\n";
    splitAtBlockBoundaries(loop, divisor, selections);
  }
}
