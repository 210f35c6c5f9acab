//===- Checks.cpp - what arts-to-llvm checks before it rewrites -----------===//
//
// Nothing is rewritten until every one of these passed, so a failing
// arts-to-llvm leaves the module as it was (see Lowering.h).
//
//===----------------------------------------------------------------------===//

#include "passes/llvm/Lowering.h"
#include "support/RuntimeAbi.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::arts;
using namespace mlir::arts::llvmlowering;

bool llvmlowering::isLoweredArtsOp(Operation *op) {
  return isa<EdtParamPackOp, EdtParamUnpackOp, EdtCreateOp, RecDepOp, DepGepOp, ReserveGuidOp,
             DbCreateOp, DbDestroyOp, DbShareOp, PutInDbEpochOp, GetFromDbEpochOp, CreateEpochOp,
             WaitOnEpochOp,
             RuntimeQueryOp, AtomicAddOp, CriticalOp>(op);
}

LogicalResult llvmlowering::checkLowerable(Operation *op, SymbolTable &symbols) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([](EdtParamPackOp pack) -> LogicalResult {
        for (auto [i, v] : llvm::enumerate(pack.getValues())) {
          if (isWordType(v.getType()))
            continue;
          auto diag = pack.emitError("cannot pack value #")
                      << i << " of type " << v.getType() << " into an EDT parameter word";
          if (isa<MemRefType>(v.getType()))
            diag << " (memrefs are never packed)";
          return diag;
        }
        return success();
      })
      .Case([](EdtParamUnpackOp unpack) -> LogicalResult {
        for (auto [i, v] : llvm::enumerate(unpack.getValues()))
          if (!isWordType(v.getType()))
            return unpack.emitError("cannot unpack result #")
                   << i << " of type " << v.getType() << " from an EDT parameter word";
        return success();
      })
      .Case([&](EdtCreateOp create) -> LogicalResult {
        auto fn = symbols.lookup<func::FuncOp>(create.getOutlinedFunc());
        if (!fn)
          return create.emitError("'@") << create.getOutlinedFunc()
                                        << "' is not a func.func of this module";
        if (fn.getFunctionType() != edtFunctionType(op->getContext()))
          return create.emitError("'@")
                 << create.getOutlinedFunc() << "' has type " << fn.getFunctionType()
                 << ", expected the EDT signature " << edtFunctionType(op->getContext());
        return success();
      })
      .Case<PutInDbEpochOp, GetFromDbEpochOp>([](auto copy) -> LogicalResult {
        auto type = dyn_cast<MemRefType>(copy->getOperand(0).getType());
        if (type && !isa<IntegerType, FloatType>(type.getElementType()))
          return copy.emitError("cannot take the address of a memref of ")
                 << type.getElementType();
        return success();
      })
      .Default([](Operation *) { return success(); });
}

FailureOr<EntryPoints> llvmlowering::checkEntryPoints(ModuleOp module, SymbolTable &symbols) {
  EntryPoints entry;
  MLIRContext *ctx = module.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  Operation *mainSym = symbols.lookup(kMainName);
  if (!mainSym)
    return entry;
  entry.main = dyn_cast<func::FuncOp>(mainSym);
  if (!entry.main || entry.main.isExternal())
    return mainSym->emitError("'main' must be a func.func with a body");
  FunctionType type = entry.main.getFunctionType();
  bool noArgs = type.getNumInputs() == 0;
  bool argcArgv = type.getInputs() == ArrayRef<Type>{i32, ptrType(ctx)};
  if (!(noArgs || argcArgv) || type.getResults() != ArrayRef<Type>{i32})
    return entry.main.emitError("'main' has type ")
               << type << "; expected 'int main(void)' () -> i32 or 'int main(int, char **)' "
               << "(i32, !llvm.ptr) -> i32";
  for (StringRef taken : {kMainBodyName, kArtsMainName, kExitCodeName})
    if (Operation *clash = symbols.lookup(taken))
      return clash->emitError("'") << taken << "' is reserved for the generated entry points";
  // initPerNode(uint32_t node, int argc, char **argv),
  // initPerWorker(uint32_t node, uint32_t worker, int argc, char **argv).
  auto initHook = [&](StringRef name, FunctionType expected,
                      func::FuncOp &out) -> LogicalResult {
    Operation *sym = symbols.lookup(name);
    if (!sym)
      return success();
    auto fn = dyn_cast<func::FuncOp>(sym);
    if (!fn || fn.isExternal() || fn.getFunctionType() != expected)
      return sym->emitError("'") << name << "' must be a func.func of type " << expected;
    out = fn;
    return success();
  };
  if (failed(initHook(kInitPerNodeName,
                      FunctionType::get(ctx, {i32, i32, ptrType(ctx)}, {}), entry.initPerNode)) ||
      failed(initHook(kInitPerWorkerName,
                      FunctionType::get(ctx, {i32, i32, i32, ptrType(ctx)}, {}),
                      entry.initPerWorker)))
    return failure();
  return entry;
}

LogicalResult llvmlowering::checkRuntimeNames(ModuleOp module, SymbolTable &symbols) {
  for (const RuntimeFunction &f : runtimeApi()) {
    Operation *sym = symbols.lookup(f.name);
    if (!sym)
      continue;
    FunctionType expected = runtimeFunctionType(module.getContext(), f);
    auto fn = dyn_cast<func::FuncOp>(sym);
    if (!fn || !fn.isExternal() || fn.getFunctionType() != expected)
      return sym->emitError("'") << f.name << "' is a runtime function; expected a declaration "
                                 << "'func.func private @" << f.name << "' of type " << expected;
  }
  return success();
}
