//===- MetadataAnalysis.h - loop and array facts of a module --------------===//
//
// The analysis behind the collect-metadata stage: per loop its trip count,
// nesting level, loop-carried dependences, reductions, per-iteration
// temporaries and a class (parallel / reduction / sequential / unknown); per
// array its rank, element type, shape, read/write counts and the access
// pattern of each dimension. The facts are plain records; collect-metadata
// turns them into JSON for its file and into attributes.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_ANALYSIS_METADATAANALYSIS_H
#define CARTS_ANALYSIS_METADATAANALYSIS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::arts {

/// What the dependence test concludes about a loop, strongest first: a proven
/// dependence, one it cannot rule out, only reductions, nothing.
enum class LoopClass { Sequential, Unknown, Reduction, Parallel };
/// "sequential", "unknown", "reduction", "parallel".
llvm::StringRef loopClassName(LoopClass c);

/// The attribute collect-metadata attaches its facts as (a dictionary; a loop's `class` is
/// loopClassName's).
constexpr llvm::StringLiteral kMetadataAttrName = "arts.metadata";

/// A value combined across iterations with one operator (`kind`: add, mul,
/// max, umax, band, ...): an iter_arg (`iter_arg#N`) or an array, by key.
struct ReductionFact {
  bool ofArray = false;
  std::string name;
  std::string kind;
};

struct LoopFacts {
  /// The loop op's name (scf.for, omp.loop_nest, ...).
  std::string op;
  /// The trip count when it is a constant; else `tripExpr` spells it.
  std::optional<int64_t> tripCount;
  std::string tripExpr;
  /// Enclosing recorded loops within the function.
  int64_t level = 0;
  LoopClass loopClass = LoopClass::Parallel;
  /// Why the loop is sequential or unknown ("" otherwise).
  std::string reason;
  std::vector<ReductionFact> reductions;
  /// Arrays (by key) each iteration writes before reading: per-iteration temporaries.
  std::vector<std::string> privates;
  /// Arrays and iter_args carrying a value from one iteration to the next.
  std::vector<std::string> carried;
  /// Arrays (by key) defined outside the loop that it reads / writes.
  std::vector<std::string> reads, writes;
};

struct ArrayFacts {
  /// memref.alloc, memref.alloca, argument, global, ...
  std::string op;
  std::string type, elementType;
  /// Rank of the combined array (a memref of memrefs adds up); none when unranked.
  std::optional<int64_t> rank;
  /// "1024x?x8"; "" for rank 0.
  std::string shape;
  bool staticShape = false;
  /// A memref of memrefs (a pointer table).
  bool nested = false;
  /// The array itself is stored into another array.
  bool storedIntoArray = false;
  int64_t reads = 0, writes = 0;
  /// Per dimension, how accesses index it: iv, affine, invariant, indirect,
  /// unknown, or none (never accessed element-wise).
  std::vector<std::string> dims;
};

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
  /// `loop` for a loop, `array` for an array.
  LoopFacts loop;
  ArrayFacts array;
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
