//===- IndexForms.cpp - array indices as linear forms ---------------------===//
//
// The IR queries about loops and the memoised linear forms of index values.
//
//===----------------------------------------------------------------------===//

#include "analysis/MetadataCollector.h"

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

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

bool isRecordedLoop(Operation *op) {
  return isa<scf::ForOp, scf::WhileOp, scf::ParallelOp, affine::AffineForOp,
             affine::AffineParallelOp, omp::LoopNestOp>(op);
}

bool isInductionVar(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return false;
  Operation *owner = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    return arg == loop.getInductionVar();
  if (auto loop = dyn_cast<affine::AffineForOp>(owner))
    return arg == loop.getInductionVar();
  return isa<scf::ParallelOp, affine::AffineParallelOp, omp::LoopNestOp>(owner);
}

bool isCarriedVar(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || isInductionVar(v))
    return false;
  Operation *owner = arg.getOwner()->getParentOp();
  return isa<LoopLikeOpInterface>(owner) || isRecordedLoop(owner);
}

bool definedInside(Value v, Operation *loop) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    return owner && (owner == loop || loop->isProperAncestor(owner));
  }
  Operation *def = v.getDefiningOp();
  return def && loop->isProperAncestor(def);
}

Value stripIntCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::TruncIOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

std::optional<int64_t> constantIntOf(Value v) {
  APInt value;
  if (v && matchPattern(stripIntCasts(v), m_ConstantInt(&value)) &&
      value.getSignificantBits() <= 64)
    return value.getSExtValue();
  return std::nullopt;
}

std::optional<IndexForm> addScaled(const IndexForm &a, const IndexForm &b, int64_t scale) {
  if (!a.known || !b.known)
    return IndexForm::unknown();
  IndexForm sum = a;
  auto scaledConstant = llvm::checkedMul(b.constant, scale);
  if (!scaledConstant)
    return std::nullopt;
  auto constant = llvm::checkedAdd(sum.constant, *scaledConstant);
  if (!constant)
    return std::nullopt;
  sum.constant = *constant;
  for (auto [atom, coeff] : b.terms) {
    auto scaled = llvm::checkedMul(coeff, scale);
    if (!scaled)
      return std::nullopt;
    auto *it = llvm::find_if(sum.terms, [&](auto &t) { return t.first == atom; });
    if (it == sum.terms.end()) {
      sum.terms.push_back({atom, *scaled});
      continue;
    }
    auto total = llvm::checkedAdd(it->second, *scaled);
    if (!total)
      return std::nullopt;
    it->second = *total;
  }
  llvm::erase_if(sum.terms, [](auto &t) { return t.second == 0; });
  llvm::sort(sum.terms, [](auto &x, auto &y) {
    return x.first.getAsOpaquePointer() < y.first.getAsOpaquePointer();
  });
  return sum;
}


IndexForm IndexAnalysis::formOf(Value v, unsigned depth) {
  if (auto it = forms.find(v); it != forms.end())
    return it->second;
  IndexForm form = compute(v, depth);
  forms[v] = form;
  return form;
}

IndexForm IndexAnalysis::compute(Value v, unsigned depth) {
  Value stripped = stripIntCasts(v);
  if (auto c = constantIntOf(stripped))
    return IndexForm::ofConstant(*c);
  Operation *def = stripped.getDefiningOp();
  if (def && depth < 48) {
    auto binary = [&](int64_t rhsScale) -> std::optional<IndexForm> {
      return addScaled(formOf(def->getOperand(0), depth + 1), formOf(def->getOperand(1), depth + 1),
                       rhsScale);
    };
    std::optional<IndexForm> result;
    if (isa<arith::AddIOp>(def)) {
      result = binary(1);
    } else if (isa<arith::SubIOp>(def)) {
      result = binary(-1);
    } else if (isa<arith::MulIOp>(def)) {
      IndexForm lhs = formOf(def->getOperand(0), depth + 1);
      IndexForm rhs = formOf(def->getOperand(1), depth + 1);
      if (lhs.isConstant())
        result = addScaled(IndexForm::ofConstant(0), rhs, lhs.constant);
      else if (rhs.isConstant())
        result = addScaled(IndexForm::ofConstant(0), lhs, rhs.constant);
    } else if (isa<arith::ShLIOp>(def)) {
      IndexForm amount = formOf(def->getOperand(1), depth + 1);
      if (amount.isConstant() && amount.constant >= 0 && amount.constant < 32)
        result = addScaled(IndexForm::ofConstant(0), formOf(def->getOperand(0), depth + 1),
                           int64_t(1) << amount.constant);
    } else if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
      AffineMap map = apply.getAffineMap();
      IndexForm f =
          formOfAffine(map.getResult(0), apply.getDimOperands(), apply.getSymbolOperands());
      if (f.known)
        result = f;
    }
    if (result && result->known)
      return *result;
  }
  return IndexForm::ofAtom(canonicalAtom(stripped));
}

IndexForm IndexAnalysis::formOfAffine(AffineExpr expr, ValueRange dims, ValueRange symbols) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < dims.size() ? formOf(dims[dim.getPosition()]) : IndexForm::unknown();
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return sym.getPosition() < symbols.size() ? formOf(symbols[sym.getPosition()])
                                               : IndexForm::unknown();
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return IndexForm::ofConstant(cst.getValue());
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return IndexForm::unknown();
  IndexForm lhs = formOfAffine(bin.getLHS(), dims, symbols);
  IndexForm rhs = formOfAffine(bin.getRHS(), dims, symbols);
  std::optional<IndexForm> result;
  if (expr.getKind() == AffineExprKind::Add)
    result = addScaled(lhs, rhs, 1);
  else if (expr.getKind() == AffineExprKind::Mul && rhs.isConstant())
    result = addScaled(IndexForm::ofConstant(0), lhs, rhs.constant);
  else if (expr.getKind() == AffineExprKind::Mul && lhs.isConstant())
    result = addScaled(IndexForm::ofConstant(0), rhs, lhs.constant);
  return result ? *result : IndexForm::unknown();
}

/// Structurally equal pure expressions (`i * n` computed twice) are one atom,
/// so that two accesses indexing with them compare equal.
Value IndexAnalysis::canonicalAtom(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumRegions() || op->getNumResults() != 1 || !isPure(op))
    return v;
  if (auto it = canonical.find(v); it != canonical.end())
    return it->second;
  // Provisionally its own atom: comparing operands below may come back to `v` (an
  // earlier representative's operand can depend on it), and must not recurse forever.
  canonical[v] = v;
  // A copy: the comparisons may add representatives (and grow the map) meanwhile.
  SmallVector<Operation *> bucket = representatives[op->getName().getAsOpaquePointer()];
  for (Operation *rep : bucket) {
    bool equal = OperationEquivalence::isEquivalentTo(
        rep, op,
        [&](Value a, Value b) { return success(a == b || formOf(a) == formOf(b)); },
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
    if (equal) {
      canonical[v] = rep->getResult(0);
      return rep->getResult(0);
    }
  }
  representatives[op->getName().getAsOpaquePointer()].push_back(op);
  return v;
}

static bool isLoadOp(Operation *op) {
  return isa<memref::LoadOp, affine::AffineLoadOp, LLVM::LoadOp>(op);
}

const AtomInfo &IndexAnalysis::atom(Value v) {
  if (auto it = atoms.find(v); it != atoms.end())
    return it->second;
  AtomInfo info;
  if (isa<BlockArgument>(v)) {
    info.kind = isInductionVar(v) ? AtomKind::Induction
                : isCarriedVar(v) ? AtomKind::Carried
                                  : AtomKind::Outer;
    info.leaves.push_back(v);
  } else if (isLoadOp(v.getDefiningOp())) {
    info.kind = AtomKind::Loaded;
    info.indirect = true;
    info.leaves.push_back(v);
  } else {
    // Walk the pure expression down to block arguments, loads and opaque results.
    info.kind = AtomKind::Opaque;
    SmallVector<Value> worklist{v};
    DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value cur = worklist.pop_back_val();
      if (!seen.insert(cur).second)
        continue;
      if (seen.size() > 128) {
        info.leaves.push_back(v);
        info.nonAffine = true;
        break;
      }
      Operation *def = cur.getDefiningOp();
      if (!def) {
        info.leaves.push_back(cur);
        info.nonAffine |= isInductionVar(cur) || isCarriedVar(cur);
        continue;
      }
      if (isLoadOp(def)) {
        info.leaves.push_back(cur);
        info.indirect = true;
        continue;
      }
      if (def->getNumRegions() || !isPure(def)) {
        info.leaves.push_back(cur); // a call result or the like: not an affine index
        info.nonAffine = true;
        continue;
      }
      llvm::append_range(worklist, def->getOperands());
    }
  }
  return atoms[v] = std::move(info);
}

} // namespace mlir::arts::metadata
