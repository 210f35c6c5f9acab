//===- MetadataAnalysis.h - loop and array facts of a module --------------===//
//
// The analysis behind the collect-metadata stage: per loop its trip count,
// nesting level, loop-carried dependences, reductions, per-iteration
// temporaries and a class (parallel / reduction / sequential / unknown); per
// array its rank, element type, shape, read/write counts and the access
// pattern of each dimension. The facts come as JSON objects so that the pass
// can write them to a file and turn them into attributes alike.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_ANALYSIS_METADATAANALYSIS_H
#define CARTS_ANALYSIS_METADATAANALYSIS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::arts {

/// The facts about one loop or one array.
struct MetadataRecord {
  bool isLoop = false;
  /// The loop or the allocation; the function for a memref argument.
  Operation *op = nullptr;
  /// The argument's index for a memref argument, else -1.
  int argument = -1;
  /// `file.c:line:col` (base name of the file), with `#n` for the n-th op at one
  /// location (a function inlined twice); "" for an op without a file location.
  std::string key;
  llvm::json::Object facts;
};

/// Analyses every loop (scf.for, scf.while, scf.parallel, affine.for,
/// affine.parallel, omp.loop_nest) and every array (memref.alloc/alloca, memref
/// function arguments) of `module`, in module order.
std::vector<MetadataRecord> analyseLoopsAndArrays(ModuleOp module);

/// The first file:line:col inside `loc` (through fused, call-site and name
/// locations; for an inlined op that is the callee's own position), or null.
FileLineColLoc firstFileLocation(Location loc);

} // namespace mlir::arts

#endif // CARTS_ANALYSIS_METADATAANALYSIS_H
