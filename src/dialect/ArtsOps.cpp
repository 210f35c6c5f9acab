//===- ArtsOps.cpp - verifiers, canonicalizers and interfaces -------------===//

#include "dialect/ArtsDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::arts;

/// Scalars and handles that fit in the u64 words of an EDT's paramv.
static bool isPackableType(Type t) {
  return isa<IntegerType, IndexType, FloatType, MemRefType, LLVM::LLVMPointerType>(t);
}

//===----------------------------------------------------------------------===//
// EdtOp
//===----------------------------------------------------------------------===//

LogicalResult EdtOp::verify() {
  if (auto workers = getWorkers()) {
    if (*workers <= 0)
      return emitOpError("workers must be positive, got ") << *workers;
    if (getEdtType() != EdtType::parallel)
      return emitOpError("only a parallel task has workers");
  }
  return success();
}

LogicalResult EdtOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getDeps().size())
    return emitOpError("expects one block argument per dependency (")
           << getDeps().size() << " dependencies, " << body.getNumArguments()
           << " block arguments)";
  for (auto [i, dep, arg] : llvm::enumerate(getDeps(), body.getArguments()))
    if (dep.getType() != arg.getType())
      return emitOpError("block argument #") << i << " has type " << arg.getType()
                                             << " but dependency #" << i << " has type "
                                             << dep.getType();
  if (getNoVerify())
    return success();
  for (auto [i, dep] : llvm::enumerate(getDeps()))
    if (!dep.getDefiningOp<DbAcquireOp>())
      return emitOpError("dependency #") << i << " must come from arts.db_acquire";
  return success();
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

LogicalResult ForOp::verify() {
  if (auto step = getConstantIntValue(getStep()); step && *step <= 0)
    return emitOpError("step must be positive, got ") << *step;
  size_t numKinds = getReductionKinds() ? getReductionKinds()->size() : 0;
  if (numKinds != getReductionAccs().size())
    return emitOpError("expects one reduction kind per accumulator (")
           << numKinds << " kinds, " << getReductionAccs().size() << " accumulators)";
  for (Value acc : getReductionAccs()) {
    auto type = cast<MemRefType>(acc.getType());
    // A scalar, or a small 1-D array reduced element by element (an array section).
    if (type.getRank() > 1 || (type.getRank() == 1 && (type.isDynamicDim(0) || type.getDimSize(0) > 64)))
      return emitOpError("reduction accumulator must be a scalar or a 1-D array of at most 64 "
                         "elements of static size, got ")
             << type;
  }
  if (getChunk() && !getSchedule())
    return emitOpError("chunk size given without a schedule");
  return success();
}

LogicalResult ForOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 1 || !body.getArgument(0).getType().isIndex())
    return emitOpError("body must have exactly one index argument (the induction variable)");
  auto edt = (*this)->getParentOfType<EdtOp>();
  if (!edt || edt.getEdtType() != EdtType::parallel)
    return emitOpError("must be nested in a parallel arts.edt");
  return success();
}

SmallVector<Region *> ForOp::getLoopRegions() { return {&getBody()}; }

std::optional<SmallVector<Value>> ForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}
std::optional<SmallVector<OpFoldResult>> ForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getLowerBound())};
}
std::optional<SmallVector<OpFoldResult>> ForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{OpFoldResult(getUpperBound())};
}
std::optional<SmallVector<OpFoldResult>> ForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{OpFoldResult(getStep())};
}

namespace {
/// A loop whose constant bounds give no iteration does nothing.
struct EraseZeroTripFor : OpRewritePattern<ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ForOp op, PatternRewriter &rewriter) const override {
    auto lb = getConstantIntValue(op.getLowerBound());
    auto ub = getConstantIntValue(op.getUpperBound());
    if (!lb || !ub || *lb < *ub)
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// An epoch that launches nothing and whose GUID is unused waits for nothing.
struct EraseEmptyEpoch : OpRewritePattern<EpochOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(EpochOp op, PatternRewriter &rewriter) const override {
    if (!op->use_empty() || !llvm::hasSingleElement(op.getBody().front()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void ForOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<EraseZeroTripFor>(context);
}

void EpochOp::getCanonicalizationPatterns(RewritePatternSet &results, MLIRContext *context) {
  results.add<EraseEmptyEpoch>(context);
}

//===----------------------------------------------------------------------===//
// Datablocks
//===----------------------------------------------------------------------===//

LogicalResult DbAllocOp::verify() {
  auto guids = cast<MemRefType>(getGuids().getType());
  auto ptrs = cast<MemRefType>(getPtrs().getType());
  size_t rank = getSizes().size();
  if (rank == 0)
    return emitOpError("expects at least one size (number of blocks per partitioned dimension)");
  if (guids.getRank() != (int64_t)rank || ptrs.getRank() != (int64_t)rank)
    return emitOpError("handle tables must have rank ")
           << rank << " (one dimension per size), got " << guids << " and " << ptrs;
  if (guids.getShape() != ptrs.getShape())
    return emitOpError("GUID and payload tables must have the same shape");
  auto block = dyn_cast<MemRefType>(ptrs.getElementType());
  if (!block)
    return emitOpError("payload table elements must be memrefs (one per block), got ")
           << ptrs.getElementType();
  if (block.getRank() != (int64_t)getElementSizes().size())
    return emitOpError("block type ")
           << block << " must have one dimension per element size ("
           << getElementSizes().size() << ")";
  if (getPartition() == PartitionMode::coarse)
    for (Value size : getSizes())
      if (auto n = getConstantIntValue(size); n && *n != 1)
        return emitOpError("a coarse allocation has one block per dimension, got ") << *n;
  if (getDbMode() == DbMode::read && getMode() != ArtsMode::in)
    return emitOpError("a read-only allocation cannot be written (mode ")
           << stringifyArtsMode(getMode()) << ")";
  if (Value address = getAddress()) {
    auto source = cast<MemRefType>(address.getType());
    if (source.getElementType() != block.getElementType())
      return emitOpError("address element type ")
             << source.getElementType() << " differs from the block element type "
             << block.getElementType();
  }
  return success();
}

LogicalResult DbSyncOp::verify() {
  auto alloc = getGuids().getDefiningOp<DbAllocOp>();
  if (!alloc || alloc.getPtrs() != getPtrs())
    return emitOpError("operands must be the GUID and payload tables of one arts.db_alloc");
  // A table that is not distributed lives on node 0, where the host writes its
  // payload in place: a flush gives its blocks a new version; there is no
  // shadow to fetch into.
  if (getKind() == SyncKind::fetch && !alloc.getDistributed())
    return emitOpError("fetches into the host shadows of a distributed arts.db_alloc; this one "
                       "is not distributed (its payload is node 0's own)");
  if (getKind() == SyncKind::share && alloc.getDistributed())
    return emitOpError("shares a table on node 0; this arts.db_alloc is distributed (its blocks "
                       "live on their owners)");
  return success();
}

LogicalResult DbAcquireOp::verify() {
  auto srcGuids = cast<MemRefType>(getSourceGuids().getType());
  auto srcPtrs = cast<MemRefType>(getSourcePtrs().getType());
  auto guids = cast<MemRefType>(getGuids().getType());
  auto ptrs = cast<MemRefType>(getPtrs().getType());
  if (srcGuids.getRank() != srcPtrs.getRank())
    return emitOpError("source GUID and payload tables must have the same rank");
  if (getOffsets().size() != getSizes().size())
    return emitOpError("expects as many sizes as offsets (")
           << getOffsets().size() << " offsets, " << getSizes().size() << " sizes)";
  if ((int64_t)(getIndices().size() + getOffsets().size()) > srcPtrs.getRank())
    return emitOpError("indices and offsets address ")
           << getIndices().size() + getOffsets().size() << " dimensions of a rank-"
           << srcPtrs.getRank() << " table";
  if (ptrs.getElementType() != srcPtrs.getElementType())
    return emitOpError("acquired payload type ")
           << ptrs.getElementType() << " differs from the source block type "
           << srcPtrs.getElementType();
  if (guids.getRank() != ptrs.getRank())
    return emitOpError("acquired GUID and payload tables must have the same rank");
  return success();
}

LogicalResult DbRefOp::verify() {
  auto ptrs = cast<MemRefType>(getPtrs().getType());
  if ((int64_t)getIndices().size() != ptrs.getRank())
    return emitOpError("expects ") << ptrs.getRank() << " indices into the handle table, got "
                                   << getIndices().size();
  if (getPayload().getType() != ptrs.getElementType())
    return emitOpError("result type ")
           << getPayload().getType() << " must be the table's block type "
           << ptrs.getElementType();
  return success();
}

LogicalResult AtomicAddOp::verify() {
  auto type = cast<MemRefType>(getMemref().getType());
  if ((int64_t)getIndices().size() != type.getRank())
    return emitOpError("expects ") << type.getRank() << " indices, got " << getIndices().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Lowered forms
//===----------------------------------------------------------------------===//

LogicalResult EdtParamPackOp::verify() {
  for (auto [i, v] : llvm::enumerate(getValues()))
    if (!isPackableType(v.getType()))
      return emitOpError("value #") << i << " of type " << v.getType()
                                    << " cannot be packed into EDT parameters";
  return success();
}

LogicalResult EdtParamUnpackOp::verify() {
  for (auto [i, v] : llvm::enumerate(getValues()))
    if (!isPackableType(v.getType()))
      return emitOpError("result #") << i << " of type " << v.getType()
                                     << " cannot be unpacked from EDT parameters";
  return success();
}

LogicalResult EdtCreateOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *fn = symbolTable.lookupNearestSymbolFrom(*this, getOutlinedFuncAttr());
  if (!fn || !isa<FunctionOpInterface>(fn))
    return emitOpError("outlined_func '@") << getOutlinedFunc() << "' does not name a function";
  return success();
}

LogicalResult RecDepOp::verify() {
  if (getGuids().empty())
    return emitOpError("expects at least one GUID table");
  if (getAcquireModes().size() != getGuids().size())
    return emitOpError("expects one acquire mode per GUID table (")
           << getAcquireModes().size() << " modes, " << getGuids().size() << " tables)";
  return success();
}

#define GET_OP_CLASSES
#include "carts/ArtsOps.cpp.inc"
