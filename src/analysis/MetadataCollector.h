//===- MetadataCollector.h - the metadata analysis's state ----------------===//
//
// Internal to src/analysis: the accesses the dependence test compares, the
// verdicts it reaches, and the collector whose methods are spread over
// Accesses.cpp (collection), Dependences.cpp (the dependence test),
// LoopFacts.cpp (loop facts), Reductions.cpp (reduction matching) and
// MetadataAnalysis.cpp (array facts and the driver).
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_ANALYSIS_METADATACOLLECTOR_H
#define CARTS_ANALYSIS_METADATACOLLECTOR_H

#include "analysis/IndexForms.h"
#include "analysis/MetadataAnalysis.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::arts::metadata {

//===----------------------------------------------------------------------===//
// Memory accesses
//===----------------------------------------------------------------------===//

enum class RootKind { Alloc, Alloca, Argument, Global, CallResult, TaskPrivate, Unknown };

/// One read and/or write of memory, seen from its storage root.
struct Access {
  Operation *op = nullptr;
  Value root;
  /// 0: the root's own buffer; 1: the buffers whose pointers it holds (rows of
  /// a `memref<?xmemref<?xf32>>`), ... Accesses of different layers never alias.
  unsigned layer = 0;
  /// One index per dimension, outermost first (the indices of the loads that
  /// fetched the row come first). Fewer than the rank: the rest is whole.
  SmallVector<IndexForm, 3> dims;
  bool exact = true; // false through a view (subview, reinterpret_cast, ...)
  bool whole = false; // the whole buffer past `dims` (a copy, a free, a call)
  bool read = false;
  bool write = false;
  bool element = true; // data, not a pointer to a nested buffer
};

/// Something in a loop the dependence test cannot see through (an opaque call).
struct Effect {
  Operation *op;
  std::string why;
};

/// The pattern name of one dimension's index (iv, affine, invariant, indirect, unknown).
StringRef patternName(const IndexForm &form, bool exact, IndexAnalysis &index);
/// The pattern of a dimension accessed several ways.
StringRef joinPatterns(StringRef a, StringRef b);
const char *kindName(RootKind kind);

/// `v` without float and integer extensions and truncations.
Value stripValueCasts(Value v);
/// The reduction kind an op combines with (analysis/ReductionOps.h: a subtraction adds).
std::optional<StringRef> combiningKind(Operation *op);
/// Every use of `v` is by one of `users`.
bool usedOnlyBy(Value v, ArrayRef<Operation *> users);

struct Resolved {
  Value root;
  unsigned layer = 0;
  SmallVector<IndexForm, 3> prefix;
  bool exact = true;
};

/// Follows a memref value back to its storage: through loads of a row out of
/// a pointer-of-pointer array (their indices become the leading dimensions),
/// casts and views.
Resolved resolveMemref(Value memref, IndexAnalysis &index, unsigned depth = 0);

//===----------------------------------------------------------------------===//
// Loop records
//===----------------------------------------------------------------------===//



/// What a loop does to one storage root (or one iter_arg).
struct RootVerdict {
  enum Kind { Independent, Private, Reduction, Carried, Unknown } kind = Independent;
  std::string why;
  std::string reductionKind;
};

struct LoopShape {
  SmallVector<Value, 2> ivs;
  SmallVector<std::optional<int64_t>, 2> steps;
  std::optional<int64_t> trip;
  std::string tripExpr; // when the trip count is not a constant
};

/// Analyses one module: accesses, loops, arrays; produces the records.
class MetadataCollector {
public:
  explicit MetadataCollector(ModuleOp module) : module(module), dominance(module) {}

  /// Analyses every loop and array and fills `records`.
  void run();

  /// In module order (a function's arguments before its body).
  std::vector<MetadataRecord> records;

private:
  // Accesses.
  void collectAccesses();
  void addAccess(Operation *op, Value memref, ArrayRef<IndexForm> ownDims, bool read, bool write,
                 bool whole);
  void addCallEffects(Operation *call, StringRef callee);
  void addEffect(Operation *op, std::string why);
  bool functionWritesMemory(StringRef name);
  Value canonicalRoot(Value root);
  RootKind rootKind(Value root);

  // Loops.
  LoopShape shapeOf(Operation *loop);
  LoopFacts analyseLoop(Operation *loop, unsigned level);
  RootVerdict analyseRoot(Operation *loop, const LoopShape &shape, ArrayRef<const Access *> group);
  RootVerdict analyseIterArg(Operation *loop, BlockArgument arg, Value yielded, StringRef name);
  enum class PairResult { Independent, Distance, SameLocation, Unknown };
  PairResult comparePair(const Access &w, const Access &x, Operation *loop, const LoopShape &shape,
                         int64_t *distanceOut = nullptr);
  bool sameElementEachIteration(const IndexForm &form, Operation *loop, const LoopShape &shape);
  std::optional<std::pair<int64_t, int64_t>>
  restRange(const IndexForm &form, const IndexForm &other, Value iv, Operation *loop);
  bool separatedByRange(const IndexForm &fw, const IndexForm &fx, Value iv, int64_t a,
                        std::optional<int64_t> step, Operation *loop);
  bool isPrivatizable(Operation *loop, ArrayRef<const Access *> group);
  std::optional<std::string> matchReduction(ArrayRef<const Access *> group);
  bool mayRunAfter(Operation *loop, Operation *op);
  bool sameLoadedValue(Value a, Value b);
  bool rootEscapes(Value root);

  // Arrays.
  ArrayFacts analyseArray(Value root, RootKind kind);

  std::string keyOfRoot(Value root);
  std::string render(Value v, Operation *scope);

  ModuleOp module;
  DominanceInfo dominance;
  IndexAnalysis index;
  std::vector<Access> accesses;
  DenseMap<Operation *, SmallVector<unsigned, 2>> accessesOfOp;
  DenseMap<Value, SmallVector<unsigned>> accessesOfRoot;
  std::vector<Effect> effects;
  DenseMap<Operation *, SmallVector<unsigned, 1>> effectsOfOp;
  llvm::StringMap<Value> globals;
  llvm::StringMap<std::optional<bool>> functionWrites; // nullopt while being analysed
  DenseMap<Value, std::string> rootKeys;
  DenseMap<Operation *, std::unique_ptr<AsmState>> asmStates;
};

} // namespace mlir::arts::metadata

#endif // CARTS_ANALYSIS_METADATACOLLECTOR_H
