//===- LoopFacts.cpp - the facts of one loop ------------------------------===//
//
// The shape of a loop (its induction variables, steps, trip count), its
// per-iteration temporaries and iter_args, and the class it gets from the
// verdicts of Dependences.cpp.
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
// Loop analysis
//===----------------------------------------------------------------------===//

/// Renders a bound for `trip_expr`: a constant, or the SSA name as printed.
std::string MetadataCollector::render(Value v, Operation *scope) {
  v = stripIntCasts(v);
  if (auto c = constantIntOf(v))
    return std::to_string(*c);
  Operation *func = scope->getParentOfType<FunctionOpInterface>();
  if (!func)
    func = module;
  auto &state = asmStates[func];
  if (!state)
    state = std::make_unique<AsmState>(func);
  std::string text;
  llvm::raw_string_ostream os(text);
  v.printAsOperand(os, *state);
  return text;
}

LoopShape MetadataCollector::shapeOf(Operation *loop) {
  LoopShape shape;
  SmallVector<Value> lbs, ubs, steps;
  bool inclusive = false;
  if (auto f = dyn_cast<scf::ForOp>(loop)) {
    shape.ivs.push_back(f.getInductionVar());
    lbs.push_back(f.getLowerBound());
    ubs.push_back(f.getUpperBound());
    steps.push_back(f.getStep());
  } else if (auto p = dyn_cast<scf::ParallelOp>(loop)) {
    llvm::append_range(shape.ivs, p.getInductionVars());
    llvm::append_range(lbs, p.getLowerBound());
    llvm::append_range(ubs, p.getUpperBound());
    llvm::append_range(steps, p.getStep());
  } else if (auto n = dyn_cast<omp::LoopNestOp>(loop)) {
    llvm::append_range(shape.ivs, n.getIVs());
    llvm::append_range(lbs, n.getLoopLowerBounds());
    llvm::append_range(ubs, n.getLoopUpperBounds());
    llvm::append_range(steps, n.getLoopSteps());
    inclusive = n.getLoopInclusive();
  } else if (auto a = dyn_cast<affine::AffineForOp>(loop)) {
    shape.ivs.push_back(a.getInductionVar());
    shape.steps.push_back(a.getStepAsInt());
    std::optional<int64_t> span;
    if (a.hasConstantBounds())
      span = llvm::checkedSub(a.getConstantUpperBound(), a.getConstantLowerBound());
    if (span) {
      shape.trip = *span <= 0 ? 0 : llvm::divideCeilSigned(*span, a.getStepAsInt());
    } else {
      shape.tripExpr = "non-constant affine bounds";
    }
    return shape;
  } else if (auto ap = dyn_cast<affine::AffineParallelOp>(loop)) {
    llvm::append_range(shape.ivs, ap.getIVs());
    for (int64_t s : ap.getSteps())
      shape.steps.push_back(s);
    if (auto ranges = ap.getConstantRanges()) {
      int64_t trip = 1;
      for (auto [range, step] : llvm::zip(*ranges, ap.getSteps()))
        trip *= range <= 0 ? 0 : llvm::divideCeilSigned(range, step);
      shape.trip = trip;
    } else {
      shape.tripExpr = "non-constant affine bounds";
    }
    return shape;
  } else {
    shape.tripExpr = "while loop"; // scf.while: the trip count is decided at run time
    return shape;
  }

  std::optional<int64_t> trip = 1;
  SmallVector<std::string> symbolic;
  for (auto [lb, ub, step] : llvm::zip(lbs, ubs, steps)) {
    auto l = constantIntOf(lb), u = constantIntOf(ub), s = constantIntOf(step);
    shape.steps.push_back(s);
    std::optional<int64_t> extent;
    if (l && u)
      if (auto diff = llvm::checkedSub(*u, *l))
        extent = llvm::checkedAdd(*diff, int64_t(inclusive ? 1 : 0));
    if (extent && s && *s > 0) {
      int64_t count = *extent <= 0 ? 0 : llvm::divideCeilSigned(*extent, *s);
      if (trip)
        trip = llvm::checkedMul(*trip, count);
      continue;
    }
    trip = std::nullopt;
    std::string ubText = render(ub, loop), lbText = render(lb, loop), stepText = render(step, loop);
    if (inclusive)
      ubText += " + 1";
    std::string span = lbText == "0" ? ubText : ubText + " - " + lbText;
    symbolic.push_back(stepText == "1" ? span : "ceildiv(" + span + ", " + stepText + ")");
  }
  shape.trip = trip;
  if (!trip)
    shape.tripExpr = llvm::join(symbolic, " * ");
  if (symbolic.empty() && !trip)
    shape.tripExpr = "overflow";
  return shape;
}

/// Whether `op` (outside `loop`) may execute after `loop` has run: it follows
/// the loop in program order, or an enclosing loop runs both again.
bool MetadataCollector::mayRunAfter(Operation *loop, Operation *op) {
  for (Operation *anc = loop; anc && !isa<FunctionOpInterface>(anc); anc = anc->getParentOp()) {
    Block *block = anc->getBlock();
    Operation *opAnc = block ? block->findAncestorOpInBlock(*op) : nullptr;
    if (!opAnc)
      continue;
    if (opAnc == anc || anc->isBeforeInBlock(opAnc))
      return true;
    for (Operation *outer = anc->getParentOp(); outer && !isa<FunctionOpInterface>(outer);
         outer = outer->getParentOp())
      if (isRecordedLoop(outer) || isa<LoopLikeOpInterface>(outer))
        return true;
    return false;
  }
  return true;
}

bool MetadataCollector::rootEscapes(Value root) {
  for (OpOperand &use : root.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::LoadOp, affine::AffineLoadOp, memref::DeallocOp>(user))
      continue;
    if (auto store = dyn_cast<memref::StoreOp>(user); store && use.get() == store.getMemref() &&
                                                      store.getValue() != root)
      continue;
    if (auto store = dyn_cast<affine::AffineStoreOp>(user);
        store && use.get() == store.getMemref() && store.getValue() != root)
      continue;
    return true;
  }
  return false;
}

/// Every iteration writes the location before it reads it, and nothing after
/// the loop reads the last iteration's value: a per-iteration temporary.
bool MetadataCollector::isPrivatizable(Operation *loop, ArrayRef<const Access *> group) {
  Value root = group.front()->root;
  RootKind kind = rootKind(root);
  if (kind != RootKind::Alloc && kind != RootKind::Alloca && kind != RootKind::TaskPrivate)
    return false;
  if (group.front()->layer != 0 || rootEscapes(root))
    return false;
  for (const Access *r : group) {
    if (!r->read)
      continue;
    bool covered = llvm::any_of(group, [&](const Access *w) {
      return w->write && !w->read && dominance.properlyDominates(w->op, r->op);
    });
    if (!covered)
      return false;
  }
  for (unsigned id : accessesOfRoot[root]) {
    const Access &outside = accesses[id];
    if (!outside.read || loop->isAncestor(outside.op) || !mayRunAfter(loop, outside.op))
      continue;
    // A read after the loop must see a write made after the loop.
    bool overwritten = llvm::any_of(accessesOfRoot[root], [&](unsigned wid) {
      const Access &w = accesses[wid];
      return w.write && !loop->isAncestor(w.op) && dominance.properlyDominates(w.op, outside.op) &&
             dominance.properlyDominates(loop, w.op);
    });
    if (!overwritten)
      return false;
  }
  return true;
}


/// Whether `v` depends on `arg` through ops inside `loop` (for a result of an
/// op with regions, through anything those regions use).
static bool dependsOn(Value v, Value arg, Operation *loop) {
  SmallVector<Value> worklist{v};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value cur = worklist.pop_back_val();
    if (cur == arg)
      return true;
    if (!seen.insert(cur).second)
      continue;
    if (seen.size() > 4096)
      return true; // too far to follow: assume it does
    Operation *def = cur.getDefiningOp();
    if (!def || !loop->isProperAncestor(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
    for (Region &region : def->getRegions())
      region.walk([&](Operation *nested) { llvm::append_range(worklist, nested->getOperands()); });
  }
  return false;
}

RootVerdict MetadataCollector::analyseIterArg(Operation *loop, BlockArgument arg, Value yielded,
                                              StringRef name) {
  if (!dependsOn(yielded, arg, loop))
    return {RootVerdict::Independent, "", ""};
  // `acc' = acc op x`, with acc used by nothing else and acc' only yielded.
  Operation *combine = stripValueCasts(yielded).getDefiningOp();
  Operation *yield = arg.getOwner()->getTerminator();
  if (combine && loop->isProperAncestor(combine) && combine->getNumOperands() == 2 &&
      usedOnlyBy(arg, {combine}) && usedOnlyBy(combine->getResult(0), {yield})) {
    if (auto kind = combiningKind(combine)) {
      Value lhs = stripValueCasts(combine->getOperand(0));
      Value rhs = stripValueCasts(combine->getOperand(1));
      bool isSub = isa<arith::SubFOp, arith::SubIOp>(combine);
      Value other = lhs == arg ? rhs : rhs == arg && !isSub ? lhs : Value();
      if (other && !dependsOn(other, arg, loop))
        return {RootVerdict::Reduction, "", kind->str()};
    }
  }
  return {RootVerdict::Carried, (name + " carries a value from one iteration to the next").str(),
          ""};
}

LoopFacts MetadataCollector::analyseLoop(Operation *loop, unsigned level) {
  LoopShape shape = shapeOf(loop);
  LoopFacts facts;
  facts.op = loop->getName().getStringRef().str();
  facts.tripCount = shape.trip;
  if (!shape.trip)
    facts.tripExpr = shape.tripExpr;
  facts.level = level;

  // sequential (a proven dependence) > unknown > reduction > parallel: the
  // enumerators are in that order.
  auto demote = [&](LoopClass to, const std::string &reason) {
    if (to < facts.loopClass) {
      facts.loopClass = to;
      facts.reason = reason;
    }
  };

  if (isa<scf::WhileOp>(loop))
    demote(LoopClass::Sequential, "a while loop: each iteration decides whether the next one runs");

  // Side effects the test cannot see through.
  loop->walk([&](Operation *op) {
    if (op == loop)
      return;
    if (auto it = effectsOfOp.find(op); it != effectsOfOp.end())
      demote(LoopClass::Unknown, "it contains " + effects[it->second.front()].why);
  });

  // Values carried through iter_args.
  if (auto loopLike = dyn_cast<LoopLikeOpInterface>(loop); loopLike && !isa<scf::WhileOp>(loop)) {
    auto yielded = loopLike.getYieldedValues();
    for (auto [i, arg, value] : llvm::enumerate(loopLike.getRegionIterArgs(), yielded)) {
      std::string name = "iter_arg#" + std::to_string(i);
      RootVerdict v = analyseIterArg(loop, arg, value, name);
      if (v.kind == RootVerdict::Reduction) {
        facts.reductions.push_back({false, name, v.reductionKind});
        demote(LoopClass::Reduction, "");
      } else if (v.kind == RootVerdict::Carried) {
        facts.carried.push_back(name);
        demote(LoopClass::Sequential, v.why);
      }
    }
  }

  // Memory, grouped by (root, layer).
  llvm::MapVector<std::pair<Value, unsigned>, SmallVector<const Access *>> groups;
  loop->walk([&](Operation *op) {
    if (op == loop)
      return;
    if (auto it = accessesOfOp.find(op); it != accessesOfOp.end())
      for (unsigned id : it->second)
        groups[{accesses[id].root, accesses[id].layer}].push_back(&accesses[id]);
  });
  bool writesShared = false, readsUnknownRoot = false;
  llvm::SetVector<Value> readRoots, writtenRoots;
  for (auto &[key, group] : groups) {
    Value root = key.first;
    bool local = definedInside(root, loop) && rootKind(root) != RootKind::Unknown;
    bool written = llvm::any_of(group, [](const Access *a) { return a->write; });
    if (!local) {
      for (const Access *a : group) {
        if (a->read)
          readRoots.insert(root);
        if (a->write)
          writtenRoots.insert(root);
      }
      writesShared |= written;
    }
    if (local)
      continue;
    if (rootKind(root) == RootKind::Unknown) {
      if (written)
        demote(LoopClass::Unknown, "it writes through a memref of unknown origin");
      else
        readsUnknownRoot = true;
      continue;
    }
    if (!written || isa<scf::ParallelOp, affine::AffineParallelOp>(loop))
      continue;
    RootVerdict v = analyseRoot(loop, shape, group);
    std::string name = keyOfRoot(root);
    switch (v.kind) {
    case RootVerdict::Independent:
      break;
    case RootVerdict::Private:
      facts.privates.push_back(name);
      break;
    case RootVerdict::Reduction:
      facts.reductions.push_back({true, name, v.reductionKind});
      demote(LoopClass::Reduction, "");
      break;
    case RootVerdict::Carried:
      facts.carried.push_back(name);
      demote(LoopClass::Sequential, v.why);
      break;
    case RootVerdict::Unknown:
      demote(LoopClass::Unknown, v.why);
      break;
    }
  }
  if (readsUnknownRoot && writesShared)
    demote(LoopClass::Unknown,
           "it reads through a memref of unknown origin that may alias what it writes");

  for (Value root : readRoots)
    facts.reads.push_back(keyOfRoot(root));
  for (Value root : writtenRoots)
    facts.writes.push_back(keyOfRoot(root));
  return facts;
}

} // namespace mlir::arts::metadata
