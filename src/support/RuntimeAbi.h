//===- RuntimeAbi.h - the runtime's C API as lowered code calls it --------===//
//
// The one place the compiler spells the C signatures of runtime/include/arts.h
// (test_runtime_abi.py compares the table in RuntimeAbi.cpp with the header):
// arts-to-llvm declares every runtime function it calls from here.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_SUPPORT_RUNTIMEABI_H
#define CARTS_SUPPORT_RUNTIMEABI_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>

namespace mlir::arts {

/// C types of the runtime API as the lowered code sees them: `uint32_t`/`int`
/// are i32, `artsGuid_t`/`uint64_t` i64, every pointer (functions too) ptr,
/// `bool` i1.
enum class Abi : uint8_t { none, i1, i32, i64, ptr };

enum class Rt : uint8_t {
  RT, Shutdown, SetEntryPoints,
  ReserveGuidRoute, DbCreateWithGuid, DbCreateOnOwner, DbDestroy, DbShare, LaunchBegin, LaunchEnd, PutInDbEpoch, GetFromDbEpoch,
  EdtCreate, EdtCreateWithEpoch, RecordDep, EdtCreateWithDbs,
  InitializeAndStartEpoch, WaitOnHandle,
  GetCurrentWorker, GetTotalWorkers, GetCurrentNode, GetTotalNodes,
  CriticalEnter, CriticalExit,
};

struct RuntimeFunction {
  Rt id;
  llvm::StringLiteral name;
  Abi result;
  std::array<Abi, 8> args; // ends at the first `none`
};

/// Datablock access modes of the runtime (ARTS_DB_READ, ARTS_DB_WRITE,
/// ARTS_DB_CONCURRENT in arts.h); used both for GUID types and per dependence.
constexpr int32_t kDbRead = 8;
constexpr int32_t kDbWrite = 9;
constexpr int32_t kDbConcurrent = 10;
/// ARTS_DB_READ_STABLE, ARTS_DB_CONCURRENT_STABLE and ARTS_DB_WRITE_STABLE:
/// dependence modes only (a `stable` rec_dep of an `in`, a `concurrent`, or an
/// `out`/`inout` table).
constexpr int32_t kDbReadStable = 11;
constexpr int32_t kDbConcurrentStable = 12;
constexpr int32_t kDbWriteStable = 13;

/// Every runtime function the lowering may call.
llvm::ArrayRef<RuntimeFunction> runtimeApi();
/// The entry of `id` in the table.
const RuntimeFunction &runtimeFunction(Rt id);
/// The MLIR type of one ABI class (null for `none`).
Type abiType(MLIRContext *ctx, Abi abi);
/// The function type `f` is declared with.
FunctionType runtimeFunctionType(MLIRContext *ctx, const RuntimeFunction &f);

} // namespace mlir::arts

#endif // CARTS_SUPPORT_RUNTIMEABI_H
