//===- AliasScopes.cpp - alias scopes from arts-alias-facts' marks --------===//
//
// Described in Passes.td (`AliasScopes`). Runs in the LLVM lowering, before
// finalize-memref-to-llvm: a marked memref.load/store becomes the llvm.load/store that
// pass would make (the same address computation, flags and alignment) with the scope of its
// allocation and, as noalias, the scopes of the function's other allocations. Unmarked ones
// are left to finalize-memref-to-llvm.
//
//===----------------------------------------------------------------------===//

#include "support/ArtsUtils.h"
#include "passes/PassDetail.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::arts {
#define GEN_PASS_DEF_ALIASSCOPES
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
/// Per function, one scope per allocation id, in one domain.
using FunctionScopes = llvm::DenseMap<Operation *, SmallVector<LLVM::AliasScopeAttr>>;

/// (alias scopes, noalias scopes) of an access marked `id` in `op`'s function.
std::pair<ArrayAttr, ArrayAttr> scopesOf(Operation *op, const FunctionScopes &scopes) {
  auto it = scopes.find(op->getParentOfType<FunctionOpInterface>());
  int64_t id = artsDialect(op)->getAliasArrayAttrHelper().getAttr(op).getInt();
  SmallVector<Attribute> others;
  for (auto [k, scope] : llvm::enumerate(it->second))
    if ((int64_t)k != id)
      others.push_back(scope);
  Builder b(op->getContext());
  return {b.getArrayAttr({it->second[id]}), b.getArrayAttr(others)};
}

// memref.load/store lower with inbounds and nuw GEPs, as finalize-memref-to-llvm's do: the
// indices of a memref access are in bounds and not negative.
constexpr LLVM::GEPNoWrapFlags kNoWrap = LLVM::GEPNoWrapFlags::inbounds | LLVM::GEPNoWrapFlags::nuw;

struct MarkedLoad : ConvertOpToLLVMPattern<memref::LoadOp> {
  MarkedLoad(const LLVMTypeConverter &converter, const FunctionScopes &scopes)
      : ConvertOpToLLVMPattern(converter), scopes(scopes) {}

  LogicalResult matchAndRewrite(memref::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getMemRefType();
    Value address = getStridedElementPtr(rewriter, op.getLoc(), type, adaptor.getMemref(),
                                         adaptor.getIndices(), kNoWrap);
    auto [in, notIn] = scopesOf(op, scopes);
    auto load = LLVM::LoadOp::create(rewriter, op.getLoc(),
                                     typeConverter->convertType(type.getElementType()), address,
                                     op.getAlignment().value_or(0), /*isVolatile=*/false,
                                     op.getNontemporal());
    load.setAliasScopesAttr(in);
    load.setNoaliasScopesAttr(notIn);
    rewriter.replaceOp(op, load.getResult());
    return success();
  }

  const FunctionScopes &scopes;
};

struct MarkedStore : ConvertOpToLLVMPattern<memref::StoreOp> {
  MarkedStore(const LLVMTypeConverter &converter, const FunctionScopes &scopes)
      : ConvertOpToLLVMPattern(converter), scopes(scopes) {}

  LogicalResult matchAndRewrite(memref::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value address = getStridedElementPtr(rewriter, op.getLoc(), op.getMemRefType(),
                                         adaptor.getMemref(), adaptor.getIndices(), kNoWrap);
    auto [in, notIn] = scopesOf(op, scopes);
    auto store = LLVM::StoreOp::create(rewriter, op.getLoc(), adaptor.getValue(), address,
                                       op.getAlignment().value_or(0), /*isVolatile=*/false,
                                       op.getNontemporal());
    store.setAliasScopesAttr(in);
    store.setNoaliasScopesAttr(notIn);
    rewriter.eraseOp(op);
    return success();
  }

  const FunctionScopes &scopes;
};

struct AliasScopes : arts::impl::AliasScopesBase<AliasScopes> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // A function whose accesses reach two allocations or more gets a domain and a scope per
    // allocation; with one there is nothing to tell apart, and its marks just go.
    FunctionScopes scopes;
    module.walk([&](FunctionOpInterface fn) {
      int64_t count = 0;
      fn->walk([&](Operation *op) {
        if (auto id = artsDialect(op)->getAliasArrayAttrHelper().getAttr(op))
          count = std::max(count, id.getInt() + 1);
      });
      if (count < 2) {
        fn->walk([](Operation *op) { op->removeAttr(ArtsDialect::AliasArrayAttrHelper::getNameStr()); });
        return;
      }
      std::string name = fn.getName().str();
      auto domain = LLVM::AliasScopeDomainAttr::get(
          ctx, DistinctAttr::create(UnitAttr::get(ctx)), StringAttr::get(ctx, name));
      SmallVector<LLVM::AliasScopeAttr> &list = scopes[fn];
      for (int64_t k = 0; k < count; ++k)
        list.push_back(LLVM::AliasScopeAttr::get(
            ctx, DistinctAttr::create(UnitAttr::get(ctx)), domain,
            StringAttr::get(ctx, name + " allocation " + std::to_string(k))));
    });
    if (scopes.empty())
      return;

    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    patterns.add<MarkedLoad, MarkedStore>(converter, scopes);
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *op) {
      return !isa<memref::LoadOp, memref::StoreOp>(op) ||
             !artsDialect(op)->getAliasArrayAttrHelper().isAttrPresent(op);
    });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
