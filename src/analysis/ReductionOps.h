//===- ReductionOps.h - which operations are reductions -------------------===//
//
// The one recognition of reduction operators, shared by collect-metadata
// (loops of the sequential compile) and openmp-to-arts (combiners of
// omp.declare_reduction, loop updates, and the `x = x op e` of a critical
// section made atomic): an arith op combining two values, and a
// compare-and-select (or compare-and-store) keeping the larger or smaller of
// two values. It recognises; the passes decide.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_ANALYSIS_REDUCTIONOPS_H
#define CARTS_ANALYSIS_REDUCTIONOPS_H

#include "dialect/ArtsDialect.h"

#include <optional>

namespace mlir::arts {

/// The reduction kind of an arith op combining two values: add, mul, max/min
/// (signed integers and floats), umax/umin, band, bor, bxor. With
/// `subtractionAdds`, a subtraction too: `s = s - x` accumulates a sum, as
/// OpenMP's `-` reduction does (a combiner is never a subtraction).
std::optional<ReductionKind> combiningKindOf(Operation *op, bool subtractionAdds = false);

/// A compare read as a choice between its two operands.
struct MinMaxCompare {
  Value lhs, rhs;
  bool greater = false;    ///< `lhs > rhs` (or `>=`) holds when it is true
  bool isUnsigned = false; ///< an unsigned integer compare
};

/// `cmp` (arith.cmpf or arith.cmpi) as an ordering of its operands; nothing
/// for equality and the other predicates that choose no extreme.
std::optional<MinMaxCompare> minMaxCompare(Operation *cmp);

/// The kind that keeps the compare's left operand (`keepsLhs`) or its right one
/// when the compare holds: max or min, umax or umin for an unsigned compare.
ReductionKind minMaxKind(const MinMaxCompare &compare, bool keepsLhs);

} // namespace mlir::arts

#endif // CARTS_ANALYSIS_REDUCTIONOPS_H
