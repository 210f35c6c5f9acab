//===- DbLowering.cpp - datablock tables become runtime datablocks --------===//
//
// Runs after edt-lowering (which reads the block shapes off arts.db_alloc).
//
//   arts.db_alloc  -> a GUID table and a payload table (memref.alloc of the
//                     result types) and a loop nest over the blocks that
//                     reserves a GUID on the allocation's route, creates the
//                     datablock and stores its GUID and its payload memref
//   arts.db_ref    -> memref.load from the (payload or view) table
//   arts.db_free   -> arts.db_destroy per block, then dealloc of both tables
//
//===----------------------------------------------------------------------===//

#include "passes/Debug.h"
#include "passes/LoweringUtils.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::arts {
#define GEN_PASS_DEF_DBLOWERING
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

static constexpr llvm::StringLiteral kChannel = "db-lowering";

namespace {
struct DbLowering : arts::impl::DbLoweringBase<DbLowering> {
  void runOnOperation() override;

private:
  LogicalResult checkLowerable(DbAllocOp alloc);
  void lowerAlloc(DbAllocOp alloc);
  void lowerFree(DbFreeOp free);
};
} // namespace

LogicalResult DbLowering::checkLowerable(DbAllocOp alloc) {
  auto guidType = cast<MemRefType>(alloc.getGuids().getType());
  auto ptrType = cast<MemRefType>(alloc.getPtrs().getType());
  auto blockType = cast<MemRefType>(ptrType.getElementType());
  if (!guidType.getLayout().isIdentity() || !ptrType.getLayout().isIdentity() ||
      !blockType.getLayout().isIdentity())
    return alloc.emitError("datablock tables and blocks must have the identity layout, got ")
           << guidType << " and " << ptrType;
  if (!elementByteSize(blockType.getElementType()))
    return alloc.emitError("cannot size a datablock of ") << blockType.getElementType();
  return success();
}

void DbLowering::lowerAlloc(DbAllocOp alloc) {
  Location loc = alloc.getLoc();
  auto guidType = cast<MemRefType>(alloc.getGuids().getType());
  auto ptrType = cast<MemRefType>(alloc.getPtrs().getType());
  auto blockType = cast<MemRefType>(ptrType.getElementType());
  int64_t elementBytes = *elementByteSize(blockType.getElementType());

  OpBuilder b(alloc);
  SmallVector<Value> extents = shapeValues(b, loc, guidType, alloc.getSizes());
  SmallVector<Value> blockSizes = shapeValues(b, loc, blockType, alloc.getElementSizes());
  Value guids = memref::AllocOp::create(b, loc, guidType, dynamicSizes(guidType, extents));
  Value ptrs = memref::AllocOp::create(b, loc, ptrType, dynamicSizes(ptrType, extents));
  // Bytes per block: a constant when the block shape is.
  std::optional<int64_t> staticBytes = elementBytes;
  for (Value size : blockSizes) {
    std::optional<int64_t> extent = getConstantIntValue(size);
    staticBytes = staticBytes && extent ? std::optional(*staticBytes * *extent) : std::nullopt;
  }
  Value bytes;
  if (staticBytes) {
    bytes = arith::ConstantIntOp::create(b, loc, b.getI64Type(), *staticBytes);
  } else {
    Value elements =
        arith::IndexCastOp::create(b, loc, b.getI64Type(), productOf(b, loc, blockSizes));
    bytes = arith::MulIOp::create(
        b, loc, elements, arith::ConstantIntOp::create(b, loc, b.getI64Type(), elementBytes));
  }
  DbMode mode = alloc.getDbMode();
  Value route = alloc.getRoute();
  forEachIndex(b, loc, extents, [&](OpBuilder &lb, Location l, ValueRange ivs) {
    Value guid = ReserveGuidOp::create(lb, l, lb.getI64Type(), mode, route);
    Value raw = DbCreateOp::create(lb, l, LLVM::LLVMPointerType::get(lb.getContext()), guid,
                                   bytes, /*distributed=*/false);
    memref::StoreOp::create(lb, l, guid, guids, ivs);
    memref::StoreOp::create(lb, l, buildPayloadView(lb, l, raw, blockType, blockSizes), ptrs,
                            ivs);
  });

  CARTS_DEBUG(kChannel, alloc) << "db_alloc <" << stringifyPartitionMode(alloc.getPartition())
                               << "> -> " << guidType.getRank() << "-d table of " << blockType
                               << " blocks, reserve_guid <" << stringifyDbMode(mode) << ">"
                               << " element_bytes=" << elementBytes
                               << (alloc.getDistributed() ? " (distributed ignored: one node)"
                                                          : "")
                               << (alloc.getAddress() ? " (address operand dropped)" : "")
                               << "\n";
  alloc.getGuids().replaceAllUsesWith(guids);
  alloc.getPtrs().replaceAllUsesWith(ptrs);
  alloc.erase();
}

void DbLowering::lowerFree(DbFreeOp free) {
  Location loc = free.getLoc();
  OpBuilder b(free);
  Value guids = free.getGuids();
  auto guidType = cast<MemRefType>(guids.getType());
  SmallVector<Value> extents;
  for (int64_t d = 0; d < guidType.getRank(); ++d)
    extents.push_back(b.createOrFold<memref::DimOp>(loc, guids, d));
  forEachIndex(b, loc, extents, [&](OpBuilder &lb, Location l, ValueRange ivs) {
    DbDestroyOp::create(lb, l, memref::LoadOp::create(lb, l, guids, ivs));
  });
  memref::DeallocOp::create(b, loc, guids);
  memref::DeallocOp::create(b, loc, free.getPtrs());
  CARTS_DEBUG(kChannel, free) << "db_free -> db_destroy per block, dealloc of both tables\n";
  free.erase();
}

void DbLowering::runOnOperation() {
  SmallVector<Operation *> ops; // in program order, so the debug channel reads top down
  getOperation().walk([&](Operation *op) {
    if (isa<DbAllocOp, DbFreeOp, DbRefOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops)
    if (auto alloc = dyn_cast<DbAllocOp>(op); alloc && failed(checkLowerable(alloc)))
      return signalPassFailure();

  for (Operation *op : ops) {
    if (auto alloc = dyn_cast<DbAllocOp>(op)) {
      lowerAlloc(alloc);
    } else if (auto free = dyn_cast<DbFreeOp>(op)) {
      lowerFree(free);
    } else {
      auto ref = cast<DbRefOp>(op);
      OpBuilder b(ref);
      Value payload = memref::LoadOp::create(b, ref.getLoc(), ref.getPtrs(), ref.getIndices());
      ref.getPayload().replaceAllUsesWith(payload);
      ref.erase();
    }
  }
}
