//===- Dependences.cpp - the dependence test ------------------------------===//
//
// Two accesses of a loop compared: independent across its iterations, a
// constant distance apart, the same location every iteration, or unknown;
// and the verdict for one storage root from all its pairs.
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

/// Pairs of accesses of one array a loop may compare before it gives up (`unknown`).
static constexpr size_t kMaxPairs = 100000;

MetadataCollector::PairResult
MetadataCollector::comparePair(const Access &w, const Access &x, Operation *loop,
                               const LoopShape &shape, int64_t *distanceOut) {
  if (!w.exact || !x.exact)
    return PairResult::Unknown;
  unsigned common = std::min(w.dims.size(), x.dims.size());
  // A dimension where the two indices always differ by a non-zero constant.
  for (unsigned d = 0; d < common; ++d) {
    const IndexForm &fw = w.dims[d], &fx = x.dims[d];
    if (fw.sameTerms(fx) && fw.constant != fx.constant && index.invariantIn(fw, loop))
      return PairResult::Independent;
  }
  // Each induction variable of the loop must separate the two in some dimension.
  bool separated = true;
  std::optional<int64_t> distance;
  for (auto [ivIndex, iv] : llvm::enumerate(shape.ivs)) {
    bool ivSeparates = false;
    for (unsigned d = 0; d < common && !ivSeparates; ++d) {
      const IndexForm &fw = w.dims[d], &fx = x.dims[d];
      int64_t a = fw.coefficient(iv);
      if (a == 0 || fx.coefficient(iv) != a)
        continue;
      if (!fw.sameTerms(fx) || !index.invariantIn(fw, loop, iv)) {
        // `a*i + j` with j in a range narrower than a*step (a row-major flattened index).
        ivSeparates = separatedByRange(fw, fx, iv, a, shape.steps[ivIndex], loop);
        continue;
      }
      // a*i1 + c_w == a*i2 + c_x with i1 - i2 = k * step, k != 0
      int64_t diff = fx.constant - fw.constant;
      std::optional<int64_t> step = shape.steps[ivIndex];
      if (diff == 0 || diff % a != 0) {
        ivSeparates = true;
        continue;
      }
      int64_t delta = diff / a;
      if (step && *step != 0 && delta % *step != 0) {
        ivSeparates = true;
        continue;
      }
      int64_t iterations = step && *step != 0 ? delta / *step : delta;
      if (shape.trip && std::abs(iterations) >= *shape.trip) {
        ivSeparates = true;
        continue;
      }
      if (shape.ivs.size() == 1 && step) {
        // A proven recurrence only if every other dimension names the same element.
        bool restEqual = !w.whole && !x.whole && w.dims.size() == x.dims.size();
        for (unsigned o = 0; o < w.dims.size() && restEqual; ++o)
          restEqual = o == d || (w.dims[o] == x.dims[o] &&
                                 sameElementEachIteration(w.dims[o], loop, shape));
        if (restEqual)
          distance = iterations;
      }
    }
    separated &= ivSeparates;
  }
  if (separated)
    return PairResult::Independent;
  if (distance) {
    if (distanceOut)
      *distanceOut = *distance;
    return PairResult::Distance;
  }
  // The same element in every iteration: equal indices free of the loop's IVs,
  // whose other atoms are invariant or IVs of loops nested in this one.
  if (w.whole || x.whole || w.dims.size() != x.dims.size())
    return PairResult::Unknown;
  for (unsigned d = 0; d < w.dims.size(); ++d)
    if (w.dims[d] != x.dims[d] || !sameElementEachIteration(w.dims[d], loop, shape))
      return PairResult::Unknown;
  return PairResult::SameLocation;
}

/// An index free of the loop's own IVs whose atoms are invariant in the loop or
/// IVs of loops nested in it: every iteration of `loop` reaches the same elements.
bool MetadataCollector::sameElementEachIteration(const IndexForm &form, Operation *loop,
                                                 const LoopShape &shape) {
  return form.known && llvm::all_of(form.terms, [&](auto &term) {
           Value atom = term.first;
           return index.atomInvariantIn(atom, loop) ||
                  (index.atom(atom).kind == AtomKind::Induction &&
                   !llvm::is_contained(shape.ivs, atom));
         });
}

/// The values an induction variable takes when its loop has constant bounds.
static std::optional<std::pair<int64_t, int64_t>> inductionRange(Value iv) {
  auto arg = dyn_cast<BlockArgument>(iv);
  if (!arg)
    return std::nullopt;
  Operation *owner = arg.getOwner()->getParentOp();
  std::optional<int64_t> lb, ub, step;
  bool inclusive = false;
  if (auto f = dyn_cast<scf::ForOp>(owner); f && arg == f.getInductionVar()) {
    lb = constantIntOf(f.getLowerBound()), ub = constantIntOf(f.getUpperBound());
    step = constantIntOf(f.getStep());
  } else if (auto a = dyn_cast<affine::AffineForOp>(owner); a && a.hasConstantBounds()) {
    lb = a.getConstantLowerBound(), ub = a.getConstantUpperBound(), step = a.getStepAsInt();
  } else if (auto n = dyn_cast<omp::LoopNestOp>(owner)) {
    unsigned i = arg.getArgNumber();
    lb = constantIntOf(n.getLoopLowerBounds()[i]), ub = constantIntOf(n.getLoopUpperBounds()[i]);
    step = constantIntOf(n.getLoopSteps()[i]);
    inclusive = n.getLoopInclusive();
  }
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  auto last = llvm::checkedSub(*ub, int64_t(inclusive ? 0 : 1));
  if (!last || *last < *lb)
    return std::nullopt;
  return std::make_pair(*lb, *lb + (*last - *lb) / *step * *step);
}

/// The range of `form` without its `iv` term, where atoms invariant in `loop`
/// must appear alike in `other` (they cancel) and every other atom is the IV of
/// a loop nested in `loop` with constant bounds.
std::optional<std::pair<int64_t, int64_t>>
MetadataCollector::restRange(const IndexForm &form, const IndexForm &other, Value iv,
                             Operation *loop) {
  int64_t lo = form.constant, hi = form.constant;
  for (auto [atom, coeff] : form.terms) {
    if (atom == iv)
      continue;
    if (index.atomInvariantIn(atom, loop)) {
      if (other.coefficient(atom) != coeff)
        return std::nullopt;
      continue;
    }
    auto range = definedInside(atom, loop) ? inductionRange(atom) : std::nullopt;
    if (!range)
      return std::nullopt;
    auto a = llvm::checkedMul(coeff, range->first), b = llvm::checkedMul(coeff, range->second);
    if (!a || !b)
      return std::nullopt;
    auto newLo = llvm::checkedAdd(lo, std::min(*a, *b));
    auto newHi = llvm::checkedAdd(hi, std::max(*a, *b));
    if (!newLo || !newHi)
      return std::nullopt;
    lo = *newLo, hi = *newHi;
  }
  return std::make_pair(lo, hi);
}

/// `a*i1 + r_w == a*i2 + r_x` has no solution with i1 - i2 a non-zero multiple
/// of the step when r_w - r_x stays strictly within one step of `a*i`.
bool MetadataCollector::separatedByRange(const IndexForm &fw, const IndexForm &fx, Value iv,
                                         int64_t a, std::optional<int64_t> step, Operation *loop) {
  if (!fw.known || !fx.known || !step || *step <= 0)
    return false;
  auto rw = restRange(fw, fx, iv, loop), rx = restRange(fx, fw, iv, loop);
  auto stride = llvm::checkedMul(a, *step);
  if (!rw || !rx || !stride)
    return false;
  auto lo = llvm::checkedSub(rw->first, rx->second), hi = llvm::checkedSub(rw->second, rx->first);
  if (!lo || !hi || *lo == INT64_MIN || *hi == INT64_MIN || *stride == INT64_MIN)
    return false;
  return std::max(std::abs(*lo), std::abs(*hi)) < std::abs(*stride);
}

RootVerdict MetadataCollector::analyseRoot(Operation *loop, const LoopShape &shape,
                                           ArrayRef<const Access *> group) {
  Value root = group.front()->root;
  std::string name = keyOfRoot(root);
  size_t writes = llvm::count_if(group, [](const Access *a) { return a->write; });
  if (writes * group.size() > kMaxPairs)
    return {RootVerdict::Unknown, "too many accesses of " + name + " to compare", ""};
  bool sameLocationOnly = true, anyShared = false;
  std::string unknownWhy;
  for (const Access *w : group) {
    if (!w->write)
      continue;
    for (const Access *x : group) {
      int64_t distance = 0;
      switch (comparePair(*w, *x, loop, shape, &distance)) {
      case PairResult::Independent:
        break;
      case PairResult::Distance:
        return {RootVerdict::Carried,
                // i_write - i_other == distance
                "a recurrence: an element of " + name + " written in one iteration is " +
                    (x->write && !x->read ? "written again " : "read ") +
                    std::to_string(std::abs(distance)) + " iteration(s) " +
                    (distance < 0 ? "later" : "earlier"),
                ""};
      case PairResult::SameLocation:
        anyShared = true;
        break;
      case PairResult::Unknown:
        sameLocationOnly = false;
        if (unknownWhy.empty()) {
          bool indirect = false;
          for (const Access *a : {w, x})
            for (const IndexForm &f : a->dims)
              indirect |= patternName(f, a->exact, index) == "indirect";
          unknownWhy = (indirect ? "indirect or data-dependent accesses of " : "accesses of ") +
                       name + (indirect ? "" : " the dependence test cannot separate");
        }
        break;
      }
    }
  }
  if (!sameLocationOnly)
    return {RootVerdict::Unknown, unknownWhy, ""};
  if (!anyShared)
    return {RootVerdict::Independent, "", ""};
  // Every iteration touches the same element(s): a temporary, a reduction or a dependence.
  bool oneLocation = llvm::all_of(group, [&](const Access *a) {
    return a->dims.size() == group.front()->dims.size() &&
           llvm::equal(a->dims, group.front()->dims);
  });
  if (!oneLocation)
    return {RootVerdict::Unknown, "several fixed elements of " + name + " are written", ""};
  if (isPrivatizable(loop, group))
    return {RootVerdict::Private, "", ""};
  if (auto kind = matchReduction(group))
    return {RootVerdict::Reduction, "", *kind};
  for (const Access *r : group) {
    if (!r->read)
      continue;
    bool covered = llvm::any_of(group, [&](const Access *w) {
      return w->write && dominance.properlyDominates(w->op, r->op);
    });
    if (!covered)
      return {RootVerdict::Carried,
              name + " is read before it is written in an iteration (its value comes from the "
                     "previous one)",
              ""};
  }
  return {RootVerdict::Unknown, "the last value of " + name + " written in the loop is used later",
          ""};
}


} // namespace mlir::arts::metadata
