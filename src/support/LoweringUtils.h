//===- LoweringUtils.h - helpers shared by the pre-lowering passes --------===//
//
// The pre-lowering passes turn raw datablock pointers back into memrefs in two
// places (payload tables at the allocation, view tables inside outlined
// tasks); both use buildPayloadView so the descriptor layout is decided once.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_SUPPORT_LOWERINGUTILS_H
#define CARTS_SUPPORT_LOWERINGUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace mlir::arts {

// The runtime's EDT interface, shared by arts-to-llvm and the passes that build EDT
// functions before it (arts-launch-fanout).

inline Type ptrType(MLIRContext *ctx) { return LLVM::LLVMPointerType::get(ctx); }

/// void fn(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv)
inline FunctionType edtFunctionType(MLIRContext *ctx) {
  Type i32 = IntegerType::get(ctx, 32);
  return FunctionType::get(ctx, {i32, ptrType(ctx), i32, ptrType(ctx)}, {});
}

/// Values that fit in one u64 word of paramv.
inline bool isWordType(Type t) {
  if (isa<IndexType, LLVM::LLVMPointerType>(t))
    return true;
  if (auto it = dyn_cast<IntegerType>(t))
    return it.isSignless() && it.getWidth() <= 64;
  if (auto ft = dyn_cast<FloatType>(t))
    return ft.getWidth() <= 64;
  return false;
}

/// The memref `blockType` over the raw payload `rawPtr`: an LLVM memref
/// descriptor (allocated = aligned = rawPtr, offset 0, `sizes`, row-major
/// strides) cast to `blockType` with `builtin.unrealized_conversion_cast`.
/// `sizes` has one index value per dimension of `blockType`, which must have
/// the identity layout.
Value buildPayloadView(OpBuilder &b, Location loc, Value rawPtr, MemRefType blockType,
                       ValueRange sizes);

/// Bytes of one element of a datablock (integers, floats, index, pointers,
/// memref descriptors).
std::optional<int64_t> elementByteSize(Type type);

/// A value whose defining op has no operands, no regions and no memory
/// effects (constants, memref.get_global, llvm.mlir.addressof): re-creating it
/// where it is needed is cheaper and safer than passing it around.
bool isRematerializable(Value v);

/// One index value per dimension of `type`: a constant for a static dimension,
/// else the matching entry of `dims` (which has one entry per dimension).
SmallVector<Value> shapeValues(OpBuilder &b, Location loc, MemRefType type, ValueRange dims);

/// The dynamic-dimension entries of `dims`, as memref.alloc wants them.
SmallVector<Value> dynamicSizes(MemRefType type, ValueRange dims);

/// The product of `values` (1 for none), as an index.
Value productOf(OpBuilder &b, Location loc, ValueRange values);

/// `ivs` flattened row-major over the box `dims`.
Value linearize(OpBuilder &b, Location loc, ValueRange ivs, ValueRange dims);

/// A loop nest 0..dims[d] step 1 (no loop at all for zero dims); `body` is
/// called in the innermost body with the induction variables.
void forEachIndex(OpBuilder &b, Location loc, ValueRange dims,
                  llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body);

} // namespace mlir::arts

#endif // CARTS_SUPPORT_LOWERINGUTILS_H
