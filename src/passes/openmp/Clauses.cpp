//===- Clauses.cpp - OpenMP clauses read as ARTS attributes ---------------===//
//
// The schedule and runtime-query mappings, and the recognition of reduction
// operators: the combiner of an omp.declare_reduction, and an atomic update
// that a loop can keep as a reduction. The operators themselves are
// analysis/ReductionOps.h's, as in collect-metadata.
//
//===----------------------------------------------------------------------===//

#include "passes/openmp/Converter.h"
#include "analysis/ReductionOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::arts;

namespace mlir::arts::openmp {

//===----------------------------------------------------------------------===//
// Mapping OpenMP clauses to ARTS attributes
//===----------------------------------------------------------------------===//

std::optional<ScheduleKind> scheduleOf(omp::ClauseScheduleKind kind) {
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

std::optional<RuntimeQueryKind> runtimeQueryOf(StringRef callee) {
  return llvm::StringSwitch<std::optional<RuntimeQueryKind>>(callee)
      .Case("omp_get_thread_num", RuntimeQueryKind::current_worker)
      .Case("omp_get_num_threads", RuntimeQueryKind::total_workers)
      .Case("omp_get_max_threads", RuntimeQueryKind::total_workers)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// Recognising reductions
//===----------------------------------------------------------------------===//

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

std::optional<ReductionKind> kindOfAtomicUpdate(Operation *op) {
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

/// Reads the operator off the combiner region. Loads and stores are ignored
/// so that by-reference declarations (which load both sides and store the
/// result) match like by-value ones.
ReductionMatch matchReduction(omp::DeclareReductionOp decl) {
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

} // namespace mlir::arts::openmp
