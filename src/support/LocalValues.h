//===- LocalValues.h - values of local variables, compared and hoisted ----===//
//
// The front end keeps every C local in a rank-0 memref.alloca, so a size
// written `n` twice is two loads of one slot. These helpers tell when two
// such values are the same and move the computation of a value to an earlier
// point, for rewrites that place an op before the code that computed its
// operands (raise-pointer-tables hoists row sizes to the outer allocation).
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_SUPPORT_LOCALVALUES_H
#define CARTS_SUPPORT_LOCALVALUES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Value.h"

namespace mlir::arts {

/// Whether `a` comes before `b` in the text of the block holding both.
bool comesBefore(Operation *a, Operation *b);

/// A local scalar variable of the front end: a rank-0 memref.alloca that is
/// only loaded and stored (never passed on), so only its stores change it.
bool isLocalSlot(Value memref);

/// Whether a store to the local `slot` may run after `from` and before `to`
/// (`to` later in the text). Conservative when `from` sits inside a loop: a
/// store anywhere in that loop counts.
bool storedBetween(Value slot, Operation *from, Operation *to);

/// The local variable `v` is read from, if it is a load of one.
Value slotReadBy(Value v);

/// Whether `a` and `b` compute the same value: the same SSA value, equal
/// constants, two reads of a local variable not assigned in between, or the
/// same side-effect-free op on operands that are the same (`index_cast %n`
/// written twice, once for the malloc and once for the loop).
bool sameValue(Value a, Value b, unsigned depth = 0);

/// Why a value cannot be computed at an earlier point.
enum class NotHoistable { LoopVariable, AssignedVariable, Unavailable };

/// Whether `v` can be made available right before `point`: it is defined
/// there already, or side-effect-free ops and reads of local variables not
/// assigned from `point` on compute it from such values. `why` says what
/// stands in the way otherwise.
bool hoistable(Value v, Operation *point, DominanceInfo &dom, NotHoistable &why,
               unsigned depth = 0);

/// Makes `v` available right before the insertion point of `builder` (see
/// hoistable), cloning the ops that compute it.
Value hoist(Value v, OpBuilder &builder, IRMapping &clones, DominanceInfo &dom);

} // namespace mlir::arts

#endif // CARTS_SUPPORT_LOCALVALUES_H
