//===- Plugin.cpp - C entry points called from Python through ctypes ------===//
//
// The Python side loads this library once per process (after `import mlir`, so
// the bindings' libMLIRPythonCAPI.so is already loaded and shared), then calls:
//   cartsRegisterDialects(registry)  for every context it makes;
//   cartsRegisterPasses()            once, so PassManager.parse finds our passes.
//
//===----------------------------------------------------------------------===//

#include "dialect/ArtsDialect.h"
#include "passes/PassDetail.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

#include <mutex>

extern "C" {

__attribute__((visibility("default"))) void cartsRegisterDialects(MlirDialectRegistry registry) {
  unwrap(registry)->insert<mlir::arts::ArtsDialect>();
}

__attribute__((visibility("default"))) void cartsRegisterPasses() {
  static std::once_flag once;
  std::call_once(once, [] { mlir::arts::registerAllArtsPasses(); });
}

__attribute__((visibility("default"))) const char *cartsPluginVersion() { return "0.1.0"; }

} // extern "C"
