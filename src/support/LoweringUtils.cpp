//===- LoweringUtils.cpp - helpers shared by the pre-lowering passes ------===//

#include "support/LoweringUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

Value arts::buildPayloadView(OpBuilder &b, Location loc, Value rawPtr, MemRefType blockType,
                             ValueRange sizes) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  int64_t rank = blockType.getRank();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  SmallVector<Type> fields = {ptrType, ptrType, i64};
  if (rank > 0) {
    auto array = LLVM::LLVMArrayType::get(i64, rank);
    fields.append({array, array});
  }
  auto descType = LLVM::LLVMStructType::getLiteral(ctx, fields);

  Value desc = LLVM::UndefOp::create(b, loc, descType);
  desc = LLVM::InsertValueOp::create(b, loc, desc, rawPtr, ArrayRef<int64_t>{0});
  desc = LLVM::InsertValueOp::create(b, loc, desc, rawPtr, ArrayRef<int64_t>{1});
  Value zero = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0));
  desc = LLVM::InsertValueOp::create(b, loc, desc, zero, ArrayRef<int64_t>{2});
  SmallVector<Value> sizes64;
  for (Value size : sizes)
    sizes64.push_back(arith::IndexCastOp::create(b, loc, i64, size));
  Value stride =
      rank > 0 ? LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1)) : Value();
  for (int64_t d = rank - 1; d >= 0; --d) {
    desc = LLVM::InsertValueOp::create(b, loc, desc, sizes64[d], ArrayRef<int64_t>{3, d});
    desc = LLVM::InsertValueOp::create(b, loc, desc, stride, ArrayRef<int64_t>{4, d});
    if (d > 0)
      stride = b.createOrFold<arith::MulIOp>(loc, stride, sizes64[d]);
  }
  return UnrealizedConversionCastOp::create(b, loc, TypeRange{blockType}, ValueRange{desc})
      .getResult(0);
}

std::optional<int64_t> arts::elementByteSize(Type type) {
  if (type.isIndex() || isa<LLVM::LLVMPointerType>(type))
    return 8;
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  // A stored memref is its LLVM descriptor: two pointers, the offset, then
  // sizes and strides (all 8 bytes, no padding).
  if (auto memref = dyn_cast<MemRefType>(type))
    return (3 + 2 * memref.getRank()) * 8;
  return std::nullopt;
}

bool arts::isRematerializable(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         def->getNumResults() == 1 && isMemoryEffectFree(def);
}

SmallVector<Value> arts::shapeValues(OpBuilder &b, Location loc, MemRefType type,
                                     ValueRange dims) {
  SmallVector<Value> shape;
  for (auto [d, extent] : llvm::enumerate(type.getShape()))
    shape.push_back(ShapedType::isDynamic(extent)
                        ? dims[d]
                        : Value(arith::ConstantIndexOp::create(b, loc, extent)));
  return shape;
}

SmallVector<Value> arts::dynamicSizes(MemRefType type, ValueRange dims) {
  SmallVector<Value> dynamic;
  for (auto [d, extent] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(extent))
      dynamic.push_back(dims[d]);
  return dynamic;
}

Value arts::productOf(OpBuilder &b, Location loc, ValueRange values) {
  Value product;
  for (Value v : values)
    product = product ? b.createOrFold<arith::MulIOp>(loc, product, v) : v;
  return product ? product : Value(arith::ConstantIndexOp::create(b, loc, 1));
}

Value arts::linearize(OpBuilder &b, Location loc, ValueRange ivs, ValueRange dims) {
  Value linear;
  for (auto [iv, dim] : llvm::zip_equal(ivs, dims))
    linear = linear ? b.createOrFold<arith::AddIOp>(
                          loc, b.createOrFold<arith::MulIOp>(loc, linear, dim), iv)
                    : iv;
  return linear ? linear : Value(arith::ConstantIndexOp::create(b, loc, 0));
}

void arts::forEachIndex(OpBuilder &b, Location loc, ValueRange dims,
                        llvm::function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> lbs, steps;
  if (!dims.empty()) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    lbs.assign(dims.size(), zero);
    steps.assign(dims.size(), one);
  }
  scf::buildLoopNest(b, loc, lbs, dims, steps, body);
}
