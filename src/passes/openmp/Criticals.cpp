//===- Criticals.cpp - omp.critical becomes an atomic update or a lock ----===//
//
// Runs before the other rewrites: an atomic update a critical section becomes
// may then become the reduction of its loop (Loops.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/openmp/Converter.h"

#include "analysis/ReductionOps.h"
#include "support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::arts;

namespace mlir::arts::openmp {

/// `omp.critical`: a body that is one update `x = x op e` of a scalar becomes that
/// atomic update (and, in a loop, maybe a reduction); any other body runs under the
/// runtime's lock for its name, in `arts.critical`.
void Converter::convertCriticals() {
  SmallVector<omp::CriticalOp> criticals;
  DenseSet<Value> guardedWrites; // memrefs some critical section stores into
  module.walk([&](omp::CriticalOp op) {
    criticals.push_back(op);
    op.walk([&](memref::StoreOp store) { guardedWrites.insert(store.getMemRef()); });
  });
  for (omp::CriticalOp op : criticals) {
    if (criticalToAtomic(op, guardedWrites))
      continue;
    std::string name = op.getNameAttr() ? op.getNameAttr().getValue().str() : "";
    CARTS_DEBUG(kChannel, op) << "omp.critical -> arts.critical \"" << name
                              << "\" (the runtime's lock of its node)\n";
    rewriter.setInsertionPoint(op);
    auto critical = CriticalOp::create(rewriter, op.getLoc(), rewriter.getStringAttr(name));
    Block *body = rewriter.createBlock(&critical.getBody());
    Operation *yield = YieldOp::create(rewriter, op.getLoc());
    Block &old = op.getRegion().front();
    rewriter.eraseOp(old.getTerminator());
    rewriter.inlineBlockBefore(&old, yield);
    (void)body;
    rewriter.eraseOp(op);
  }
}

/// `critical { x = x op e; }`, e computed in the section from values and loads of
/// memory no critical section writes, becomes one atomic update of x with e computed
/// before it: `memref.generic_atomic_rmw` (integers) or `memref.atomic_rmw addf`
/// (floats, `+` and `-` only).
bool Converter::criticalToAtomic(omp::CriticalOp op, const DenseSet<Value> &guardedWrites) {
  Block &body = op.getRegion().front();
  if (!op.getRegion().hasOneBlock() || body.getOperations().size() < 4)
    return false;
  auto store = dyn_cast<memref::StoreOp>(*std::prev(body.getTerminator()->getIterator()));
  if (!store || !store.getIndices().empty())
    return false;
  Value x = store.getMemRef();
  Operation *combining = store.getValue().getDefiningOp();
  // The update combines as a reduction does (a subtraction adds a negated value).
  std::optional<ReductionKind> kind =
      combining ? combiningKindOf(combining, /*subtractionAdds=*/true) : std::nullopt;
  if (!kind || combining->getBlock() != &body)
    return false;
  auto load = combining->getOperand(0).getDefiningOp<memref::LoadOp>();
  unsigned curIndex = 0;
  if (!load || load.getMemRef() != x) {
    load = combining->getOperand(1).getDefiningOp<memref::LoadOp>();
    curIndex = 1;
  }
  if (!load || load.getMemRef() != x || load->getBlock() != &body || !load->hasOneUse())
    return false;
  Value e = combining->getOperand(1 - curIndex);
  // Everything else computes e: pure ops and loads of memory no section writes.
  SmallVector<Operation *> rest;
  for (Operation &inner : body.without_terminator()) {
    if (&inner == load || &inner == combining || &inner == store)
      continue;
    auto other = dyn_cast<memref::LoadOp>(inner);
    bool pure = isMemoryEffectFree(&inner) && inner.getNumRegions() == 0;
    if (!pure && !(other && other.getMemRef() != x && !guardedWrites.contains(other.getMemRef())))
      return false;
    if (llvm::any_of(inner.getOperands(), [&](Value v) {
          return v == load.getResult() || v == combining->getResult(0);
        }))
      return false;
    rest.push_back(&inner);
  }
  Type type = load.getType();
  bool isFloat = isa<FloatType>(type);
  if (isFloat && (*kind != ReductionKind::add ||
                  (isa<arith::SubFOp>(combining) && curIndex != 0)))
    return false;
  if (!isFloat && !type.isSignlessInteger())
    return false;
  rewriter.setInsertionPoint(op);
  for (Operation *inner : rest)
    rewriter.moveOpBefore(inner, op);
  Location loc = store.getLoc();
  if (isFloat) {
    Value addend = isa<arith::SubFOp>(combining) ? arith::NegFOp::create(rewriter, loc, e).getResult() : e;
    memref::AtomicRMWOp::create(rewriter, loc, arith::AtomicRMWKind::addf, addend, x, ValueRange{});
  } else {
    auto rmw = memref::GenericAtomicRMWOp::create(rewriter, loc, x, ValueRange{});
    OpBuilder::InsertionGuard guard(rewriter);
    Block &atomicBody = rmw.getAtomicBody().front();
    rewriter.setInsertionPointToStart(&atomicBody);
    IRMapping map;
    map.map(load.getResult(), atomicBody.getArgument(0));
    Operation *next = rewriter.clone(*combining, map);
    memref::AtomicYieldOp::create(rewriter, loc, next->getResult(0));
  }
  CARTS_DEBUG(kChannel, op) << "omp.critical -> atomic update of " << x.getType()
                            << " (its body is one 'x = x op e')\n";
  rewriter.eraseOp(op);
  return true;
}

} // namespace mlir::arts::openmp
