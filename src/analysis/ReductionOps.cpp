//===- ReductionOps.cpp - which operations are reductions -----------------===//

#include "analysis/ReductionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::arts;

std::optional<ReductionKind> mlir::arts::combiningKindOf(Operation *op, bool subtractionAdds) {
  if (subtractionAdds && isa<arith::SubFOp, arith::SubIOp>(op))
    return ReductionKind::add;
  return llvm::TypeSwitch<Operation *, std::optional<ReductionKind>>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return ReductionKind::add; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return ReductionKind::mul; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
          [](auto) { return ReductionKind::max; })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
          [](auto) { return ReductionKind::min; })
      .Case<arith::MaxUIOp>([](auto) { return ReductionKind::umax; })
      .Case<arith::MinUIOp>([](auto) { return ReductionKind::umin; })
      .Case<arith::AndIOp>([](auto) { return ReductionKind::band; })
      .Case<arith::OrIOp>([](auto) { return ReductionKind::bor; })
      .Case<arith::XOrIOp>([](auto) { return ReductionKind::bxor; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<MinMaxCompare> mlir::arts::minMaxCompare(Operation *cmp) {
  MinMaxCompare c;
  if (auto f = dyn_cast_or_null<arith::CmpFOp>(cmp)) {
    using P = arith::CmpFPredicate;
    P p = f.getPredicate();
    if (p == P::OGT || p == P::OGE || p == P::UGT || p == P::UGE)
      c.greater = true;
    else if (!(p == P::OLT || p == P::OLE || p == P::ULT || p == P::ULE))
      return std::nullopt;
    c.lhs = f.getLhs();
    c.rhs = f.getRhs();
    return c;
  }
  if (auto i = dyn_cast_or_null<arith::CmpIOp>(cmp)) {
    using P = arith::CmpIPredicate;
    P p = i.getPredicate();
    if (p == P::sgt || p == P::sge || p == P::ugt || p == P::uge)
      c.greater = true;
    else if (!(p == P::slt || p == P::sle || p == P::ult || p == P::ule))
      return std::nullopt;
    c.isUnsigned = p == P::ugt || p == P::uge || p == P::ult || p == P::ule;
    c.lhs = i.getLhs();
    c.rhs = i.getRhs();
    return c;
  }
  return std::nullopt;
}

ReductionKind mlir::arts::minMaxKind(const MinMaxCompare &compare, bool keepsLhs) {
  bool max = compare.greater == keepsLhs;
  if (compare.isUnsigned)
    return max ? ReductionKind::umax : ReductionKind::umin;
  return max ? ReductionKind::max : ReductionKind::min;
}
