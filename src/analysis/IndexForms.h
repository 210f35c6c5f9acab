//===- IndexForms.h - array indices as linear forms -----------------------===//
//
// Part of the metadata analysis (MetadataAnalysis.h): an array index as
// sum(coefficient * atom) + constant, the atoms' kinds, and the IR queries
// about loops the forms are built from.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_ANALYSIS_INDEXFORMS_H
#define CARTS_ANALYSIS_INDEXFORMS_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::arts::metadata {

/// The loop ops that get a record. omp.loop_nest stands for the source loop(s)
/// under an omp.wsloop; scf.parallel and affine.parallel are parallel by
/// construction.
bool isRecordedLoop(Operation *op);
bool isInductionVar(Value v);
/// A block argument of a loop that is not an induction variable: iter_args,
/// the arguments of scf.while. Its value changes from iteration to iteration.
bool isCarriedVar(Value v);
/// True when `v` is defined by an op nested in `loop` or is one of its block
/// arguments, so that its value may change from one iteration to the next.
bool definedInside(Value v, Operation *loop);
Value stripIntCasts(Value v);
std::optional<int64_t> constantIntOf(Value v);

//===----------------------------------------------------------------------===//
// Index forms: sum(coefficient * atom) + constant
//===----------------------------------------------------------------------===//


/// One array index as a linear form over atoms. An atom is an SSA value the
/// form cannot see through: an induction variable, a function argument, a
/// loaded value or a non-linear expression (kept whole, and shared between
/// structurally equal expressions). `known == false` when nothing is known
/// (a whole dimension, a non-linear affine map).
struct IndexForm {
  SmallVector<std::pair<Value, int64_t>, 2> terms; // sorted by atom, non-zero coefficients
  int64_t constant = 0;
  bool known = true;

  static IndexForm unknown() {
    IndexForm f;
    f.known = false;
    return f;
  }
  static IndexForm ofConstant(int64_t c) {
    IndexForm f;
    f.constant = c;
    return f;
  }
  static IndexForm ofAtom(Value atom) {
    IndexForm f;
    f.terms.push_back({atom, 1});
    return f;
  }
  bool isConstant() const { return known && terms.empty(); }
  int64_t coefficient(Value atom) const {
    for (auto [a, c] : terms)
      if (a == atom)
        return c;
    return 0;
  }
  bool sameTerms(const IndexForm &other) const {
    return known && other.known && terms == other.terms;
  }
  bool operator==(const IndexForm &other) const {
    return sameTerms(other) && constant == other.constant;
  }
  bool operator!=(const IndexForm &other) const { return !(*this == other); }
};

/// `a + scale * b`, or nothing on overflow.
std::optional<IndexForm> addScaled(const IndexForm &a, const IndexForm &b, int64_t scale);

enum class AtomKind { Induction, Carried, Loaded, Outer, Opaque };

struct AtomInfo {
  AtomKind kind = AtomKind::Outer;
  /// Block arguments and loaded values the atom is computed from: the atom is
  /// invariant in a loop when none of them is defined inside it.
  SmallVector<Value, 4> leaves;
  bool indirect = false;  // computed from a value loaded from memory
  bool nonAffine = false; // a non-linear function of an induction/carried value
};

/// Linear forms of index values, memoised for one module.
class IndexAnalysis {
public:
  IndexForm formOf(Value v, unsigned depth = 0);
  IndexForm formOfAffine(AffineExpr expr, ValueRange dims, ValueRange symbols);
  const AtomInfo &atom(Value atom);

  bool atomInvariantIn(Value atom, Operation *loop) {
    return llvm::none_of(this->atom(atom).leaves,
                         [&](Value leaf) { return definedInside(leaf, loop); });
  }
  /// Every atom of `form` other than `except` keeps its value across `loop`'s iterations.
  bool invariantIn(const IndexForm &form, Operation *loop, Value except = nullptr) {
    return form.known && llvm::all_of(form.terms, [&](auto &t) {
             return t.first == except || atomInvariantIn(t.first, loop);
           });
  }

private:
  IndexForm compute(Value v, unsigned depth);
  Value canonicalAtom(Value v);

  DenseMap<Value, IndexForm> forms;
  DenseMap<Value, Value> canonical;
  DenseMap<void *, SmallVector<Operation *>> representatives; // by operation name
  DenseMap<Value, AtomInfo> atoms;
};

} // namespace mlir::arts::metadata

#endif // CARTS_ANALYSIS_INDEXFORMS_H
