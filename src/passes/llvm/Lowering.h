//===- Lowering.h - what arts-to-llvm's parts share -----------------------===//
//
// Internal to arts-to-llvm (ArtsToLlvm.cpp rewrites, llvm/Checks.cpp checks):
// the symbols of the generated entry points, the types of the runtime's EDT
// interface, and the checks that run before any rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_PASSES_LLVM_LOWERING_H
#define CARTS_PASSES_LLVM_LOWERING_H

#include "dialect/ArtsDialect.h"
#include "support/LoweringUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::arts::llvmlowering {

inline constexpr llvm::StringLiteral kMainName = "main";
inline constexpr llvm::StringLiteral kMainBodyName = "mainBody";
inline constexpr llvm::StringLiteral kArtsMainName = "artsMain";
inline constexpr llvm::StringLiteral kExitCodeName = "__carts_exit_code";
inline constexpr llvm::StringLiteral kInitPerNodeName = "initPerNode";
inline constexpr llvm::StringLiteral kInitPerWorkerName = "initPerWorker";

using arts::edtFunctionType;
using arts::isWordType;
using arts::ptrType;

/// The user's main and the symbols the generated entry points need.
struct EntryPoints {
  func::FuncOp main;                   // null: a module without a program
  func::FuncOp initPerNode, initPerWorker;
};

/// Whether `op` is one of the ops this pass rewrites into runtime calls.
bool isLoweredArtsOp(Operation *op);
/// Whether `op` can be rewritten (packable words, an outlined function of the
/// EDT signature, addressable copies); a located error otherwise.
LogicalResult checkLowerable(Operation *op, SymbolTable &symbols);
/// The program's main and init hooks, checked against the signatures the
/// generated entry points call them with; the names those take are reserved.
FailureOr<EntryPoints> checkEntryPoints(ModuleOp module, SymbolTable &symbols);
/// A symbol named like a runtime function must be that function's declaration.
LogicalResult checkRuntimeNames(ModuleOp module, SymbolTable &symbols);

} // namespace mlir::arts::llvmlowering

#endif // CARTS_PASSES_LLVM_LOWERING_H
