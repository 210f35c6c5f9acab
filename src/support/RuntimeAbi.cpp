//===- RuntimeAbi.cpp - the runtime's C API as lowered code calls it ------===//

#include "support/RuntimeAbi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::arts;

// clang-format off
static constexpr RuntimeFunction kRuntimeApi[] = {
  {Rt::RT,                      "artsRT",                      Abi::i32,  {Abi::i32, Abi::ptr}},
  {Rt::Shutdown,                "artsShutdown",                Abi::none, {}},
  // (artsMain, initPerNode or NULL, initPerWorker or NULL): a JIT-compiled
  // program cannot hand them over by symbol lookup.
  {Rt::SetEntryPoints,          "artsSetEntryPoints",          Abi::none, {Abi::ptr, Abi::ptr, Abi::ptr}},
  {Rt::ReserveGuidRoute,        "artsReserveGuidRoute",        Abi::i64,  {Abi::i32, Abi::i32}},
  {Rt::DbCreateWithGuid,        "artsDbCreateWithGuid",        Abi::ptr,  {Abi::i64, Abi::i64}},
  // (guid, bytes): ours, the creation sent to the GUID's owner when that is another node.
  {Rt::DbCreateOnOwner,         "artsDbCreateOnOwner",         Abi::ptr,  {Abi::i64, Abi::i64}},
  {Rt::DbDestroy,               "artsDbDestroy",               Abi::none, {Abi::i64}},
  // (db): ours, an early copy of a datablock to the nodes without it.
  {Rt::DbShare,                 "artsDbShare",                 Abi::none, {Abi::i64}},
  // (): ours, a launch: the thread's messages to each node leave as one at its end.
  {Rt::LaunchBegin,             "artsLaunchBegin",             Abi::none, {}},
  {Rt::LaunchEnd,               "artsLaunchEnd",               Abi::none, {}},
  {Rt::PutInDbEpoch,            "artsPutInDbEpoch",            Abi::none, {Abi::ptr, Abi::i64, Abi::i64, Abi::i32, Abi::i32}},
  // (dst, epoch, db, offset, bytes): ours, the reverse of artsPutInDbEpoch.
  {Rt::GetFromDbEpoch,          "artsGetFromDbEpoch",          Abi::none, {Abi::ptr, Abi::i64, Abi::i64, Abi::i32, Abi::i32}},
  {Rt::EdtCreate,               "artsEdtCreate",               Abi::i64,  {Abi::ptr, Abi::i32, Abi::i32, Abi::ptr, Abi::i32}},
  {Rt::EdtCreateWithEpoch,      "artsEdtCreateWithEpoch",      Abi::i64,  {Abi::ptr, Abi::i32, Abi::i32, Abi::ptr, Abi::i32, Abi::i64}},
  {Rt::RecordDep,               "artsRecordDep",               Abi::none, {Abi::i64, Abi::i64, Abi::i32, Abi::i32}},
  // (fn, route, paramc, paramv, depc, epoch or 0, runc, runv): ours, a creation
  // with its datablock dependences (artsDbRun in arts.h).
  {Rt::EdtCreateWithDbs,        "artsEdtCreateWithDbs",        Abi::i64,  {Abi::ptr, Abi::i32, Abi::i32, Abi::ptr, Abi::i32, Abi::i64, Abi::i32, Abi::ptr}},
  {Rt::InitializeAndStartEpoch, "artsInitializeAndStartEpoch", Abi::i64,  {Abi::i64, Abi::i32}},
  {Rt::WaitOnHandle,            "artsWaitOnHandle",            Abi::i1,   {Abi::i64}},
  {Rt::GetCurrentWorker,        "artsGetCurrentWorker",        Abi::i32,  {}},
  {Rt::GetTotalWorkers,         "artsGetTotalWorkers",         Abi::i32,  {}},
  {Rt::GetCurrentNode,          "artsGetCurrentNode",          Abi::i32,  {}},
  {Rt::GetTotalNodes,           "artsGetTotalNodes",           Abi::i32,  {}},
  // (id): ours, the lock of a critical section's name on this node.
  {Rt::CriticalEnter,           "artsCriticalEnter",           Abi::none, {Abi::i64}},
  {Rt::CriticalExit,            "artsCriticalExit",            Abi::none, {Abi::i64}},
};
// clang-format on

llvm::ArrayRef<RuntimeFunction> mlir::arts::runtimeApi() { return kRuntimeApi; }

const RuntimeFunction &mlir::arts::runtimeFunction(Rt id) {
  for (const RuntimeFunction &f : kRuntimeApi)
    if (f.id == id)
      return f;
  llvm_unreachable("runtime function missing from kRuntimeApi");
}

Type mlir::arts::abiType(MLIRContext *ctx, Abi abi) {
  switch (abi) {
  case Abi::none:
    return {};
  case Abi::i1:
    return IntegerType::get(ctx, 1);
  case Abi::i32:
    return IntegerType::get(ctx, 32);
  case Abi::i64:
    return IntegerType::get(ctx, 64);
  case Abi::ptr:
    return LLVM::LLVMPointerType::get(ctx);
  }
  llvm_unreachable("unknown ABI type");
}

FunctionType mlir::arts::runtimeFunctionType(MLIRContext *ctx, const RuntimeFunction &f) {
  SmallVector<Type> args;
  for (Abi a : f.args) {
    if (a == Abi::none)
      break;
    args.push_back(abiType(ctx, a));
  }
  SmallVector<Type> results;
  if (f.result != Abi::none)
    results.push_back(abiType(ctx, f.result));
  return FunctionType::get(ctx, args, results);
}
