//===- MetadataAnalysis.cpp - loop and array facts of a module ------------===//
//
// The dependence test is deliberately simple and conservative. Every memory
// access is reduced to (storage root, layer, one linear index form per
// dimension): a row loaded out of a pointer-of-pointer array is seen through
// that array, so `A[i][j]` on a `memref<?xmemref<?xf32>>` is the 2-D access
// (A, [i, j]). Two accesses of a loop are independent across its iterations
// when some dimension indexes both with the same IV term and the same
// loop-invariant rest; a constant distance between otherwise equal indices is
// a proven recurrence; the same location touched by every iteration is a
// private temporary (each read preceded by a write in the iteration), a
// reduction (load, combine, store of that location) or a dependence.
// Anything else is `unknown`. Distinct storage roots (allocations, function
// arguments, call results, globals) are assumed not to alias: C pointer
// arguments behave as if `restrict`, which holds in this pipeline because
// canonicalize-memrefs inlines every user function into main.
//
//===----------------------------------------------------------------------===//

#include "analysis/MetadataAnalysis.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::arts;
namespace json = llvm::json;

/// Pairs of accesses of one array a loop may compare before it gives up (`unknown`).
static constexpr size_t kMaxPairs = 100000;

//===----------------------------------------------------------------------===//
// Source locations
//===----------------------------------------------------------------------===//

FileLineColLoc mlir::arts::firstFileLocation(Location loc) {
  FileLineColLoc found;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      found = file;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// `basename:line:col`, or "" for an op without a file location. The base name
/// keeps the key independent of the directory each compile was started from.
static std::string locationKey(Location loc) {
  FileLineColLoc file = firstFileLocation(loc);
  if (!file)
    return "";
  return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
          llvm::Twine(file.getLine()) + ":" + llvm::Twine(file.getColumn()))
      .str();
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// The loop ops that get a record. omp.loop_nest stands for the source loop(s)
/// under an omp.wsloop; scf.parallel and affine.parallel are parallel by
/// construction.
static bool isRecordedLoop(Operation *op) {
  return isa<scf::ForOp, scf::WhileOp, scf::ParallelOp, affine::AffineForOp,
             affine::AffineParallelOp, omp::LoopNestOp>(op);
}

static bool isInductionVar(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg)
    return false;
  Operation *owner = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast<scf::ForOp>(owner))
    return arg == loop.getInductionVar();
  if (auto loop = dyn_cast<affine::AffineForOp>(owner))
    return arg == loop.getInductionVar();
  return isa<scf::ParallelOp, affine::AffineParallelOp, omp::LoopNestOp>(owner);
}

/// A block argument of a loop that is not an induction variable: iter_args,
/// the arguments of scf.while. Its value changes from iteration to iteration.
static bool isCarriedVar(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || isInductionVar(v))
    return false;
  Operation *owner = arg.getOwner()->getParentOp();
  return isa<LoopLikeOpInterface>(owner) || isRecordedLoop(owner);
}

/// True when `v` is defined by an op nested in `loop` or is one of its block
/// arguments, so that its value may change from one iteration to the next.
static bool definedInside(Value v, Operation *loop) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    return owner && (owner == loop || loop->isProperAncestor(owner));
  }
  Operation *def = v.getDefiningOp();
  return def && loop->isProperAncestor(def);
}

static Value stripIntCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::TruncIOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

static std::optional<int64_t> constantIntOf(Value v) {
  APInt value;
  if (v && matchPattern(stripIntCasts(v), m_ConstantInt(&value)) &&
      value.getSignificantBits() <= 64)
    return value.getSExtValue();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Index forms: sum(coefficient * atom) + constant
//===----------------------------------------------------------------------===//

namespace {

/// One array index as a linear form over atoms. An atom is an SSA value the
/// form cannot see through: an induction variable, a function argument, a
/// loaded value or a non-linear expression (kept whole, and shared between
/// structurally equal expressions). `known == false` when nothing is known
/// (a whole dimension, a non-linear affine map).
struct IndexForm {
  SmallVector<std::pair<Value, int64_t>, 2> terms; // sorted by atom, non-zero coefficients
  int64_t constant = 0;
  bool known = true;

  static IndexForm unknown() {
    IndexForm f;
    f.known = false;
    return f;
  }
  static IndexForm ofConstant(int64_t c) {
    IndexForm f;
    f.constant = c;
    return f;
  }
  static IndexForm ofAtom(Value atom) {
    IndexForm f;
    f.terms.push_back({atom, 1});
    return f;
  }
  bool isConstant() const { return known && terms.empty(); }
  int64_t coefficient(Value atom) const {
    for (auto [a, c] : terms)
      if (a == atom)
        return c;
    return 0;
  }
  bool sameTerms(const IndexForm &other) const {
    return known && other.known && terms == other.terms;
  }
  bool operator==(const IndexForm &other) const {
    return sameTerms(other) && constant == other.constant;
  }
  bool operator!=(const IndexForm &other) const { return !(*this == other); }
};

/// `a + scale * b`, or nothing on overflow.
static std::optional<IndexForm> addScaled(const IndexForm &a, const IndexForm &b, int64_t scale) {
  if (!a.known || !b.known)
    return IndexForm::unknown();
  IndexForm sum = a;
  auto scaledConstant = llvm::checkedMul(b.constant, scale);
  if (!scaledConstant)
    return std::nullopt;
  auto constant = llvm::checkedAdd(sum.constant, *scaledConstant);
  if (!constant)
    return std::nullopt;
  sum.constant = *constant;
  for (auto [atom, coeff] : b.terms) {
    auto scaled = llvm::checkedMul(coeff, scale);
    if (!scaled)
      return std::nullopt;
    auto *it = llvm::find_if(sum.terms, [&](auto &t) { return t.first == atom; });
    if (it == sum.terms.end()) {
      sum.terms.push_back({atom, *scaled});
      continue;
    }
    auto total = llvm::checkedAdd(it->second, *scaled);
    if (!total)
      return std::nullopt;
    it->second = *total;
  }
  llvm::erase_if(sum.terms, [](auto &t) { return t.second == 0; });
  llvm::sort(sum.terms, [](auto &x, auto &y) {
    return x.first.getAsOpaquePointer() < y.first.getAsOpaquePointer();
  });
  return sum;
}

enum class AtomKind { Induction, Carried, Loaded, Outer, Opaque };

struct AtomInfo {
  AtomKind kind = AtomKind::Outer;
  /// Block arguments and loaded values the atom is computed from: the atom is
  /// invariant in a loop when none of them is defined inside it.
  SmallVector<Value, 4> leaves;
  bool indirect = false;  // computed from a value loaded from memory
  bool nonAffine = false; // a non-linear function of an induction/carried value
};

/// Linear forms of index values, memoised for one module.
class IndexAnalysis {
public:
  IndexForm formOf(Value v, unsigned depth = 0);
  IndexForm formOfAffine(AffineExpr expr, ValueRange dims, ValueRange symbols);
  const AtomInfo &atom(Value atom);

  bool atomInvariantIn(Value atom, Operation *loop) {
    return llvm::none_of(this->atom(atom).leaves,
                         [&](Value leaf) { return definedInside(leaf, loop); });
  }
  /// Every atom of `form` other than `except` keeps its value across `loop`'s iterations.
  bool invariantIn(const IndexForm &form, Operation *loop, Value except = nullptr) {
    return form.known && llvm::all_of(form.terms, [&](auto &t) {
             return t.first == except || atomInvariantIn(t.first, loop);
           });
  }

private:
  IndexForm compute(Value v, unsigned depth);
  Value canonicalAtom(Value v);

  DenseMap<Value, IndexForm> forms;
  DenseMap<Value, Value> canonical;
  DenseMap<void *, SmallVector<Operation *>> representatives; // by operation name
  DenseMap<Value, AtomInfo> atoms;
};

} // namespace

IndexForm IndexAnalysis::formOf(Value v, unsigned depth) {
  if (auto it = forms.find(v); it != forms.end())
    return it->second;
  IndexForm form = compute(v, depth);
  forms[v] = form;
  return form;
}

IndexForm IndexAnalysis::compute(Value v, unsigned depth) {
  Value stripped = stripIntCasts(v);
  if (auto c = constantIntOf(stripped))
    return IndexForm::ofConstant(*c);
  Operation *def = stripped.getDefiningOp();
  if (def && depth < 48) {
    auto binary = [&](int64_t rhsScale) -> std::optional<IndexForm> {
      return addScaled(formOf(def->getOperand(0), depth + 1), formOf(def->getOperand(1), depth + 1),
                       rhsScale);
    };
    std::optional<IndexForm> result;
    if (isa<arith::AddIOp>(def)) {
      result = binary(1);
    } else if (isa<arith::SubIOp>(def)) {
      result = binary(-1);
    } else if (isa<arith::MulIOp>(def)) {
      IndexForm lhs = formOf(def->getOperand(0), depth + 1);
      IndexForm rhs = formOf(def->getOperand(1), depth + 1);
      if (lhs.isConstant())
        result = addScaled(IndexForm::ofConstant(0), rhs, lhs.constant);
      else if (rhs.isConstant())
        result = addScaled(IndexForm::ofConstant(0), lhs, rhs.constant);
    } else if (isa<arith::ShLIOp>(def)) {
      IndexForm amount = formOf(def->getOperand(1), depth + 1);
      if (amount.isConstant() && amount.constant >= 0 && amount.constant < 32)
        result = addScaled(IndexForm::ofConstant(0), formOf(def->getOperand(0), depth + 1),
                           int64_t(1) << amount.constant);
    } else if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
      AffineMap map = apply.getAffineMap();
      IndexForm f =
          formOfAffine(map.getResult(0), apply.getDimOperands(), apply.getSymbolOperands());
      if (f.known)
        result = f;
    }
    if (result && result->known)
      return *result;
  }
  return IndexForm::ofAtom(canonicalAtom(stripped));
}

IndexForm IndexAnalysis::formOfAffine(AffineExpr expr, ValueRange dims, ValueRange symbols) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < dims.size() ? formOf(dims[dim.getPosition()]) : IndexForm::unknown();
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return sym.getPosition() < symbols.size() ? formOf(symbols[sym.getPosition()])
                                               : IndexForm::unknown();
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return IndexForm::ofConstant(cst.getValue());
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return IndexForm::unknown();
  IndexForm lhs = formOfAffine(bin.getLHS(), dims, symbols);
  IndexForm rhs = formOfAffine(bin.getRHS(), dims, symbols);
  std::optional<IndexForm> result;
  if (expr.getKind() == AffineExprKind::Add)
    result = addScaled(lhs, rhs, 1);
  else if (expr.getKind() == AffineExprKind::Mul && rhs.isConstant())
    result = addScaled(IndexForm::ofConstant(0), lhs, rhs.constant);
  else if (expr.getKind() == AffineExprKind::Mul && lhs.isConstant())
    result = addScaled(IndexForm::ofConstant(0), rhs, lhs.constant);
  return result ? *result : IndexForm::unknown();
}

/// Structurally equal pure expressions (`i * n` computed twice) are one atom,
/// so that two accesses indexing with them compare equal.
Value IndexAnalysis::canonicalAtom(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumRegions() || op->getNumResults() != 1 || !isPure(op))
    return v;
  if (auto it = canonical.find(v); it != canonical.end())
    return it->second;
  // Provisionally its own atom: comparing operands below may come back to `v` (an
  // earlier representative's operand can depend on it), and must not recurse forever.
  canonical[v] = v;
  // A copy: the comparisons may add representatives (and grow the map) meanwhile.
  SmallVector<Operation *> bucket = representatives[op->getName().getAsOpaquePointer()];
  for (Operation *rep : bucket) {
    bool equal = OperationEquivalence::isEquivalentTo(
        rep, op,
        [&](Value a, Value b) { return success(a == b || formOf(a) == formOf(b)); },
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
    if (equal) {
      canonical[v] = rep->getResult(0);
      return rep->getResult(0);
    }
  }
  representatives[op->getName().getAsOpaquePointer()].push_back(op);
  return v;
}

static bool isLoadOp(Operation *op) {
  return isa<memref::LoadOp, affine::AffineLoadOp, LLVM::LoadOp>(op);
}

const AtomInfo &IndexAnalysis::atom(Value v) {
  if (auto it = atoms.find(v); it != atoms.end())
    return it->second;
  AtomInfo info;
  if (isa<BlockArgument>(v)) {
    info.kind = isInductionVar(v) ? AtomKind::Induction
                : isCarriedVar(v) ? AtomKind::Carried
                                  : AtomKind::Outer;
    info.leaves.push_back(v);
  } else if (isLoadOp(v.getDefiningOp())) {
    info.kind = AtomKind::Loaded;
    info.indirect = true;
    info.leaves.push_back(v);
  } else {
    // Walk the pure expression down to block arguments, loads and opaque results.
    info.kind = AtomKind::Opaque;
    SmallVector<Value> worklist{v};
    DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value cur = worklist.pop_back_val();
      if (!seen.insert(cur).second)
        continue;
      if (seen.size() > 128) {
        info.leaves.push_back(v);
        info.nonAffine = true;
        break;
      }
      Operation *def = cur.getDefiningOp();
      if (!def) {
        info.leaves.push_back(cur);
        info.nonAffine |= isInductionVar(cur) || isCarriedVar(cur);
        continue;
      }
      if (isLoadOp(def)) {
        info.leaves.push_back(cur);
        info.indirect = true;
        continue;
      }
      if (def->getNumRegions() || !isPure(def)) {
        info.leaves.push_back(cur); // a call result or the like: not an affine index
        info.nonAffine = true;
        continue;
      }
      llvm::append_range(worklist, def->getOperands());
    }
  }
  return atoms[v] = std::move(info);
}

//===----------------------------------------------------------------------===//
// Memory accesses
//===----------------------------------------------------------------------===//

namespace {

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

} // namespace

static StringRef patternName(const IndexForm &form, bool exact, IndexAnalysis &index) {
  if (!exact || !form.known)
    return "unknown";
  bool hasInduction = false, indirect = false, nonAffine = false;
  for (auto [atom, coeff] : form.terms) {
    const AtomInfo &info = index.atom(atom);
    indirect |= info.indirect;
    nonAffine |= info.nonAffine || info.kind == AtomKind::Carried;
    hasInduction |= info.kind == AtomKind::Induction;
  }
  if (indirect)
    return "indirect";
  if (nonAffine)
    return "unknown";
  if (!hasInduction)
    return "invariant";
  if (form.terms.size() == 1 && form.terms[0].second == 1 && form.constant == 0)
    return "iv";
  return "affine";
}

/// The pattern of a dimension accessed several ways.
static StringRef joinPatterns(StringRef a, StringRef b) {
  if (a.empty() || a == b)
    return b;
  for (StringRef worst : {"unknown", "indirect"})
    if (a == worst || b == worst)
      return worst;
  return "affine"; // iv, affine and invariant indices are all affine in the IVs
}

static const char *kindName(RootKind kind) {
  switch (kind) {
  case RootKind::Alloc:
    return "memref.alloc";
  case RootKind::Alloca:
    return "memref.alloca";
  case RootKind::Argument:
    return "argument";
  case RootKind::Global:
    return "global";
  case RootKind::CallResult:
    return "call result";
  case RootKind::TaskPrivate:
    return "task-private";
  case RootKind::Unknown:
    return "unknown";
  }
  return "unknown";
}

//===----------------------------------------------------------------------===//
// Loop records
//===----------------------------------------------------------------------===//

namespace {

enum class Verdict { Parallel, Reduction, Sequential, Unknown };

static StringRef verdictName(Verdict v) {
  switch (v) {
  case Verdict::Parallel:
    return "parallel";
  case Verdict::Reduction:
    return "reduction";
  case Verdict::Sequential:
    return "sequential";
  case Verdict::Unknown:
    return "unknown";
  }
  return "unknown";
}

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

/// Analyses one module: accesses, loops, arrays; produces the JSON records.
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
  json::Object analyseLoop(Operation *loop, unsigned level);
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
  json::Object analyseArray(Value root, RootKind kind);

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

} // namespace

//===----------------------------------------------------------------------===//
// Access collection
//===----------------------------------------------------------------------===//

Value MetadataCollector::canonicalRoot(Value root) {
  // Every memref.get_global of one symbol is the same storage.
  if (auto global = root.getDefiningOp<memref::GetGlobalOp>())
    return globals.try_emplace(global.getName(), root).first->second;
  return root;
}

RootKind MetadataCollector::rootKind(Value root) {
  if (auto arg = dyn_cast<BlockArgument>(root)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (isa<FunctionOpInterface>(owner) && arg.getOwner()->isEntryBlock())
      return RootKind::Argument;
    if (isa_and_nonnull<omp::OpenMPDialect>(owner->getDialect()))
      return RootKind::TaskPrivate; // private and reduction copies of an OpenMP construct
    return RootKind::Unknown;
  }
  Operation *def = root.getDefiningOp();
  if (isa<memref::AllocOp>(def))
    return RootKind::Alloc;
  if (isa<memref::AllocaOp>(def))
    return RootKind::Alloca;
  if (isa<memref::GetGlobalOp>(def))
    return RootKind::Global;
  if (isa<CallOpInterface>(def))
    return RootKind::CallResult;
  return RootKind::Unknown;
}

namespace {
struct Resolved {
  Value root;
  unsigned layer = 0;
  SmallVector<IndexForm, 3> prefix;
  bool exact = true;
};
} // namespace

/// Follows a memref value back to its storage: through loads of a row out of
/// a pointer-of-pointer array (their indices become the leading dimensions),
/// casts and views.
static Resolved resolveMemref(Value memref, IndexAnalysis &index, unsigned depth = 0) {
  Operation *def = memref.getDefiningOp();
  if (!def || depth > 16)
    return {memref, 0, {}, depth <= 16};
  if (auto load = dyn_cast<memref::LoadOp>(def)) {
    Resolved r = resolveMemref(load.getMemref(), index, depth + 1);
    for (Value i : load.getIndices())
      r.prefix.push_back(index.formOf(i));
    r.layer += 1;
    return r;
  }
  if (auto load = dyn_cast<affine::AffineLoadOp>(def)) {
    Resolved r = resolveMemref(load.getMemref(), index, depth + 1);
    AffineMap map = load.getAffineMap();
    ValueRange operands = load.getMapOperands();
    for (AffineExpr e : map.getResults())
      r.prefix.push_back(index.formOfAffine(e, operands.take_front(map.getNumDims()),
                                            operands.drop_front(map.getNumDims())));
    r.layer += 1;
    return r;
  }
  if (auto cast = dyn_cast<memref::CastOp>(def))
    return resolveMemref(cast.getSource(), index, depth + 1);
  if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
    Resolved r = resolveMemref(view.getViewSource(), index, depth + 1);
    r.exact = false;
    return r;
  }
  return {memref, 0, {}, true};
}

void MetadataCollector::addAccess(Operation *op, Value memref, ArrayRef<IndexForm> ownDims,
                                  bool read, bool write, bool whole) {
  auto type = dyn_cast<BaseMemRefType>(memref.getType());
  if (!type)
    return;
  Resolved r = resolveMemref(memref, index);
  Access access;
  access.op = op;
  access.root = canonicalRoot(r.root);
  access.layer = r.layer;
  access.dims = std::move(r.prefix);
  if (!whole)
    llvm::append_range(access.dims, ownDims);
  access.exact = r.exact;
  access.whole = whole;
  access.read = read;
  access.write = write;
  access.element = !isa<BaseMemRefType>(type.getElementType());
  unsigned id = accesses.size();
  accesses.push_back(std::move(access));
  accessesOfOp[op].push_back(id);
  accessesOfRoot[accesses.back().root].push_back(id);
}

/// Calls that touch no memory the loops could share.
static bool isHarmlessCallee(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Case("omp_get_thread_num", true)
      .Case("omp_get_num_threads", true)
      .Case("omp_get_max_threads", true)
      .Case("omp_get_num_procs", true)
      .Case("omp_get_wtime", true)
      .Case("omp_in_parallel", true)
      .Default(false);
}

/// The memref an op writes or frees, if it is one of the memref writers.
static Value writtenMemref(Operation *op) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<memref::StoreOp, affine::AffineStoreOp, memref::AtomicRMWOp,
            memref::GenericAtomicRMWOp, memref::DeallocOp>([](auto w) { return w.getMemref(); })
      .Case([](memref::CopyOp copy) { return copy.getTarget(); })
      .Default([](Operation *) { return Value(); });
}

/// False only for a function of this module that writes nothing but memory it
/// allocates itself, reads no global, and calls only such functions: a call to
/// it reads its arguments and nothing else.
bool MetadataCollector::functionWritesMemory(StringRef name) {
  if (isHarmlessCallee(name))
    return false;
  auto it = functionWrites.find(name);
  if (it != functionWrites.end())
    return it->second.value_or(true); // recursion: assume the worst
  auto func = module.lookupSymbol<func::FuncOp>(name);
  if (!func || func.isExternal())
    return true;
  functionWrites[name] = std::nullopt;
  bool writes = false;
  func.walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      writes |= functionWritesMemory(call.getCallee());
    } else if (isa<CallOpInterface, memref::GetGlobalOp>(op)) {
      writes = true;
    } else if (Value target = writtenMemref(op)) {
      Operation *def = resolveMemref(target, index).root.getDefiningOp();
      writes |= !(def && isa<memref::AllocOp, memref::AllocaOp>(def) && func->isAncestor(def));
    } else if (!isa<memref::LoadOp, affine::AffineLoadOp, memref::AllocOp, memref::AllocaOp>(op) &&
               !op->getNumRegions() && !op->hasTrait<OpTrait::IsTerminator>() &&
               !isMemoryEffectFree(op)) {
      writes = true;
    }
  });
  functionWrites[name] = writes;
  return writes;
}

void MetadataCollector::addEffect(Operation *op, std::string why) {
  effectsOfOp[op].push_back(effects.size());
  effects.push_back({op, std::move(why)});
}

void MetadataCollector::addCallEffects(Operation *call, StringRef callee) {
  if (!callee.empty() && !functionWritesMemory(callee)) {
    // A function that only reads: it may read all of every array it is given.
    for (Value operand : call->getOperands())
      addAccess(call, operand, {}, /*read=*/true, /*write=*/false, /*whole=*/true);
    return;
  }
  addEffect(call, callee.empty() ? "an indirect call" : ("a call to @" + callee).str());
  for (Value operand : call->getOperands())
    addAccess(call, operand, {}, /*read=*/true, /*write=*/true, /*whole=*/true);
}

void MetadataCollector::collectAccesses() {
  auto formsOf = [&](ValueRange indices) {
    SmallVector<IndexForm, 3> dims;
    for (Value i : indices)
      dims.push_back(index.formOf(i));
    return dims;
  };
  auto affineForms = [&](AffineMap map, ValueRange operands) {
    SmallVector<IndexForm, 3> dims;
    for (AffineExpr e : map.getResults())
      dims.push_back(index.formOfAffine(e, operands.take_front(map.getNumDims()),
                                        operands.drop_front(map.getNumDims())));
    return dims;
  };
  module.walk([&](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](memref::LoadOp load) {
          addAccess(op, load.getMemref(), formsOf(load.getIndices()), true, false, false);
        })
        .Case([&](memref::StoreOp store) {
          addAccess(op, store.getMemref(), formsOf(store.getIndices()), false, true, false);
        })
        .Case([&](affine::AffineLoadOp load) {
          addAccess(op, load.getMemref(), affineForms(load.getAffineMap(), load.getMapOperands()),
                    true, false, false);
        })
        .Case([&](affine::AffineStoreOp store) {
          addAccess(op, store.getMemref(),
                    affineForms(store.getAffineMap(), store.getMapOperands()), false, true, false);
        })
        .Case([&](memref::AtomicRMWOp rmw) {
          addAccess(op, rmw.getMemref(), formsOf(rmw.getIndices()), true, true, false);
        })
        .Case([&](memref::GenericAtomicRMWOp rmw) {
          addAccess(op, rmw.getMemref(), formsOf(rmw.getIndices()), true, true, false);
        })
        .Case([&](memref::CopyOp copy) {
          addAccess(op, copy.getSource(), {}, true, false, true);
          addAccess(op, copy.getTarget(), {}, false, true, true);
        })
        .Case([&](memref::DeallocOp dealloc) {
          addAccess(op, dealloc.getMemref(), {}, false, true, true);
        })
        .Case([&](func::CallOp call) { addCallEffects(op, call.getCallee()); })
        .Case([&](LLVM::CallOp call) {
          // printf and friends are external: an effect whatever they touch.
          addCallEffects(op, call.getCallee() ? *call.getCallee() : StringRef());
        })
        .Case([&](CallOpInterface) { addCallEffects(op, ""); })
        .Case<memref::AllocOp, memref::AllocaOp>([](Operation *) {})
        .Default([&](Operation *other) {
          if (other->getNumRegions() || other->hasTrait<OpTrait::IsTerminator>() ||
              isMemoryEffectFree(other))
            return;
          auto iface = dyn_cast<MemoryEffectOpInterface>(other);
          if (!iface) {
            addEffect(op, ("'" + op->getName().getStringRef() + "' (unknown effects)").str());
            return;
          }
          SmallVector<MemoryEffects::EffectInstance> instances;
          iface.getEffects(instances);
          for (auto &effect : instances) {
            bool isWrite = isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
            bool isRead = isa<MemoryEffects::Read>(effect.getEffect());
            Value value = effect.getValue();
            if (value && isa<BaseMemRefType>(value.getType())) {
              if (isRead || isWrite)
                addAccess(op, value, {}, isRead, isWrite, true);
            } else if (isWrite) {
              addEffect(op, ("'" + op->getName().getStringRef() + "' writes memory").str());
            }
          }
        });
  });
}

//===----------------------------------------------------------------------===//
// Loop analysis
//===----------------------------------------------------------------------===//

/// Renders a bound for `trip_expr`: a constant, or the SSA name as printed.
std::string MetadataCollector::render(Value v, Operation *scope) {
  v = stripIntCasts(v);
  if (auto c = constantIntOf(v))
    return std::to_string(*c);
  Operation *func = scope->getParentOfType<FunctionOpInterface>();
  if (!func)
    func = module;
  auto &state = asmStates[func];
  if (!state)
    state = std::make_unique<AsmState>(func);
  std::string text;
  llvm::raw_string_ostream os(text);
  v.printAsOperand(os, *state);
  return text;
}

LoopShape MetadataCollector::shapeOf(Operation *loop) {
  LoopShape shape;
  SmallVector<Value> lbs, ubs, steps;
  bool inclusive = false;
  if (auto f = dyn_cast<scf::ForOp>(loop)) {
    shape.ivs.push_back(f.getInductionVar());
    lbs.push_back(f.getLowerBound());
    ubs.push_back(f.getUpperBound());
    steps.push_back(f.getStep());
  } else if (auto p = dyn_cast<scf::ParallelOp>(loop)) {
    llvm::append_range(shape.ivs, p.getInductionVars());
    llvm::append_range(lbs, p.getLowerBound());
    llvm::append_range(ubs, p.getUpperBound());
    llvm::append_range(steps, p.getStep());
  } else if (auto n = dyn_cast<omp::LoopNestOp>(loop)) {
    llvm::append_range(shape.ivs, n.getIVs());
    llvm::append_range(lbs, n.getLoopLowerBounds());
    llvm::append_range(ubs, n.getLoopUpperBounds());
    llvm::append_range(steps, n.getLoopSteps());
    inclusive = n.getLoopInclusive();
  } else if (auto a = dyn_cast<affine::AffineForOp>(loop)) {
    shape.ivs.push_back(a.getInductionVar());
    shape.steps.push_back(a.getStepAsInt());
    std::optional<int64_t> span;
    if (a.hasConstantBounds())
      span = llvm::checkedSub(a.getConstantUpperBound(), a.getConstantLowerBound());
    if (span) {
      shape.trip = *span <= 0 ? 0 : llvm::divideCeilSigned(*span, a.getStepAsInt());
    } else {
      shape.tripExpr = "non-constant affine bounds";
    }
    return shape;
  } else if (auto ap = dyn_cast<affine::AffineParallelOp>(loop)) {
    llvm::append_range(shape.ivs, ap.getIVs());
    for (int64_t s : ap.getSteps())
      shape.steps.push_back(s);
    if (auto ranges = ap.getConstantRanges()) {
      int64_t trip = 1;
      for (auto [range, step] : llvm::zip(*ranges, ap.getSteps()))
        trip *= range <= 0 ? 0 : llvm::divideCeilSigned(range, step);
      shape.trip = trip;
    } else {
      shape.tripExpr = "non-constant affine bounds";
    }
    return shape;
  } else {
    shape.tripExpr = "while loop"; // scf.while: the trip count is decided at run time
    return shape;
  }

  std::optional<int64_t> trip = 1;
  SmallVector<std::string> symbolic;
  for (auto [lb, ub, step] : llvm::zip(lbs, ubs, steps)) {
    auto l = constantIntOf(lb), u = constantIntOf(ub), s = constantIntOf(step);
    shape.steps.push_back(s);
    std::optional<int64_t> extent;
    if (l && u)
      if (auto diff = llvm::checkedSub(*u, *l))
        extent = llvm::checkedAdd(*diff, int64_t(inclusive ? 1 : 0));
    if (extent && s && *s > 0) {
      int64_t count = *extent <= 0 ? 0 : llvm::divideCeilSigned(*extent, *s);
      if (trip)
        trip = llvm::checkedMul(*trip, count);
      continue;
    }
    trip = std::nullopt;
    std::string ubText = render(ub, loop), lbText = render(lb, loop), stepText = render(step, loop);
    if (inclusive)
      ubText += " + 1";
    std::string span = lbText == "0" ? ubText : ubText + " - " + lbText;
    symbolic.push_back(stepText == "1" ? span : "ceildiv(" + span + ", " + stepText + ")");
  }
  shape.trip = trip;
  if (!trip)
    shape.tripExpr = llvm::join(symbolic, " * ");
  if (symbolic.empty() && !trip)
    shape.tripExpr = "overflow";
  return shape;
}

/// Whether `op` (outside `loop`) may execute after `loop` has run: it follows
/// the loop in program order, or an enclosing loop runs both again.
bool MetadataCollector::mayRunAfter(Operation *loop, Operation *op) {
  for (Operation *anc = loop; anc && !isa<FunctionOpInterface>(anc); anc = anc->getParentOp()) {
    Block *block = anc->getBlock();
    Operation *opAnc = block ? block->findAncestorOpInBlock(*op) : nullptr;
    if (!opAnc)
      continue;
    if (opAnc == anc || anc->isBeforeInBlock(opAnc))
      return true;
    for (Operation *outer = anc->getParentOp(); outer && !isa<FunctionOpInterface>(outer);
         outer = outer->getParentOp())
      if (isRecordedLoop(outer) || isa<LoopLikeOpInterface>(outer))
        return true;
    return false;
  }
  return true;
}

bool MetadataCollector::rootEscapes(Value root) {
  for (OpOperand &use : root.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::LoadOp, affine::AffineLoadOp, memref::DeallocOp>(user))
      continue;
    if (auto store = dyn_cast<memref::StoreOp>(user); store && use.get() == store.getMemref() &&
                                                      store.getValue() != root)
      continue;
    if (auto store = dyn_cast<affine::AffineStoreOp>(user);
        store && use.get() == store.getMemref() && store.getValue() != root)
      continue;
    return true;
  }
  return false;
}

/// Every iteration writes the location before it reads it, and nothing after
/// the loop reads the last iteration's value: a per-iteration temporary.
bool MetadataCollector::isPrivatizable(Operation *loop, ArrayRef<const Access *> group) {
  Value root = group.front()->root;
  RootKind kind = rootKind(root);
  if (kind != RootKind::Alloc && kind != RootKind::Alloca && kind != RootKind::TaskPrivate)
    return false;
  if (group.front()->layer != 0 || rootEscapes(root))
    return false;
  for (const Access *r : group) {
    if (!r->read)
      continue;
    bool covered = llvm::any_of(group, [&](const Access *w) {
      return w->write && !w->read && dominance.properlyDominates(w->op, r->op);
    });
    if (!covered)
      return false;
  }
  for (unsigned id : accessesOfRoot[root]) {
    const Access &outside = accesses[id];
    if (!outside.read || loop->isAncestor(outside.op) || !mayRunAfter(loop, outside.op))
      continue;
    // A read after the loop must see a write made after the loop.
    bool overwritten = llvm::any_of(accessesOfRoot[root], [&](unsigned wid) {
      const Access &w = accesses[wid];
      return w.write && !loop->isAncestor(w.op) && dominance.properlyDominates(w.op, outside.op) &&
             dominance.properlyDominates(loop, w.op);
    });
    if (!overwritten)
      return false;
  }
  return true;
}

static Value stripValueCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The kind of a binary op that combines a partial result with a new value.
static std::optional<StringRef> combiningKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<StringRef>>(op)
      .Case<arith::AddFOp, arith::AddIOp, arith::SubFOp, arith::SubIOp>(
          [](auto) { return StringRef("add"); })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return StringRef("mul"); })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp, arith::MaxUIOp>(
          [](auto) { return StringRef("max"); })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp, arith::MinUIOp>(
          [](auto) { return StringRef("min"); })
      .Case<arith::AndIOp>([](auto) { return StringRef("and"); })
      .Case<arith::OrIOp>([](auto) { return StringRef("or"); })
      .Case<arith::XOrIOp>([](auto) { return StringRef("xor"); })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether every use of `v`, seen through value casts, is by one of `users`.
static bool usedOnlyBy(Value v, ArrayRef<Operation *> users) {
  for (Operation *user : v.getUsers()) {
    if (llvm::is_contained(users, user))
      continue;
    bool isCast =
        isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(user);
    if (!isCast || !usedOnlyBy(user->getResult(0), users))
      return false;
  }
  return true;
}

/// `pick ? value : partial` with `pick = cmp(value, partial)`: max or min.
/// Returns the kind when the comparison keeps `value` exactly when it is the
/// larger (max) or smaller (min) one.
static std::optional<StringRef> compareKind(Value condition, Value value, Value partial,
                                            function_ref<bool(Value, Value)> same) {
  Operation *cmp = condition.getDefiningOp();
  if (!cmp || cmp->getNumOperands() != 2)
    return std::nullopt;
  Value lhs = cmp->getOperand(0), rhs = cmp->getOperand(1);
  std::optional<bool> greater; // `lhs > rhs` selects
  if (auto f = dyn_cast<arith::CmpFOp>(cmp)) {
    using P = arith::CmpFPredicate;
    P p = f.getPredicate();
    if (p == P::OGT || p == P::OGE || p == P::UGT || p == P::UGE)
      greater = true;
    else if (p == P::OLT || p == P::OLE || p == P::ULT || p == P::ULE)
      greater = false;
  } else if (auto i = dyn_cast<arith::CmpIOp>(cmp)) {
    using P = arith::CmpIPredicate;
    P p = i.getPredicate();
    if (p == P::sgt || p == P::sge || p == P::ugt || p == P::uge)
      greater = true;
    else if (p == P::slt || p == P::sle || p == P::ult || p == P::ule)
      greater = false;
  }
  if (!greater)
    return std::nullopt;
  if (same(lhs, value) && same(rhs, partial))
    return StringRef(*greater ? "max" : "min");
  if (same(lhs, partial) && same(rhs, value))
    return StringRef(*greater ? "min" : "max");
  return std::nullopt;
}

/// Whether `a` and `b` hold the same value: the same SSA value (up to casts),
/// or two loads of the same element with no write to that array, and no
/// opaque call, between them.
bool MetadataCollector::sameLoadedValue(Value a, Value b) {
  a = stripValueCasts(a);
  b = stripValueCasts(b);
  if (a == b)
    return true;
  Operation *first = a.getDefiningOp(), *second = b.getDefiningOp();
  if (!first || !second || !isa<memref::LoadOp, affine::AffineLoadOp>(first) ||
      !isa<memref::LoadOp, affine::AffineLoadOp>(second))
    return false;
  if (dominance.properlyDominates(second, first))
    std::swap(first, second);
  else if (!dominance.properlyDominates(first, second))
    return false;
  auto accessOf = [&](Operation *op) -> const Access * {
    auto it = accessesOfOp.find(op);
    return it == accessesOfOp.end() ? nullptr : &accesses[it->second.front()];
  };
  const Access *x = accessOf(first), *y = accessOf(second);
  if (!x || !y || x->root != y->root || x->layer != y->layer || !x->exact || !y->exact ||
      x->dims.size() != y->dims.size() || !llvm::equal(x->dims, y->dims) ||
      llvm::any_of(x->dims, [](const IndexForm &f) { return !f.known; }))
    return false;
  // Only ops of `first`'s block between the two (or inside the op holding `second`) run between.
  Block *block = first->getBlock();
  Operation *secondAnc = block->findAncestorOpInBlock(*second);
  auto between = [&](Operation *op) {
    Operation *anc = block->findAncestorOpInBlock(*op);
    return anc && first->isBeforeInBlock(anc) &&
           (anc == secondAnc || anc->isBeforeInBlock(secondAnc));
  };
  for (unsigned id : accessesOfRoot.lookup(x->root))
    if (accesses[id].write && between(accesses[id].op))
      return false;
  for (const Effect &effect : effects)
    if (between(effect.op))
      return false;
  return true;
}

/// Every access of the location is part of an update `x = x op y` (or
/// `if (y > x) x = y`) with one operator: a reduction of that kind.
std::optional<std::string> MetadataCollector::matchReduction(ArrayRef<const Access *> group) {
  // The reads: each must be the partial value of exactly one update.
  DenseMap<Operation *, const Access *> reads;
  for (const Access *a : group) {
    if (a->read && a->write)
      return std::nullopt; // an atomic update: fine to run in parallel, but not this pattern
    if (a->read) {
      if (!isa<memref::LoadOp, affine::AffineLoadOp>(a->op))
        return std::nullopt;
      reads[a->op] = a;
    }
  }
  auto partialLoad = [&](Value v) -> Operation * {
    Operation *def = stripValueCasts(v).getDefiningOp();
    return def && reads.count(def) ? def : nullptr;
  };
  auto sameValue = [&](Value a, Value b) { return sameLoadedValue(a, b); };
  std::optional<StringRef> kind;
  DenseSet<Operation *> consumed;
  for (const Access *w : group) {
    if (!w->write)
      continue;
    Value stored;
    if (auto store = dyn_cast<memref::StoreOp>(w->op))
      stored = store.getValue();
    else if (auto store = dyn_cast<affine::AffineStoreOp>(w->op))
      stored = store.getValue();
    else
      return std::nullopt;
    Operation *combine = stripValueCasts(stored).getDefiningOp();
    std::optional<StringRef> updateKind;
    Operation *partial = nullptr;
    if (combine && combine->getNumOperands() == 2 && usedOnlyBy(combine->getResult(0), {w->op})) {
      Value lhs = combine->getOperand(0), rhs = combine->getOperand(1);
      Operation *lhsLoad = partialLoad(lhs), *rhsLoad = partialLoad(rhs);
      bool isSub = isa<arith::SubFOp, arith::SubIOp>(combine);
      if (auto k = combiningKind(combine)) {
        if (lhsLoad && !rhsLoad)
          updateKind = k, partial = lhsLoad;
        else if (rhsLoad && !lhsLoad && !isSub)
          updateKind = k, partial = rhsLoad;
        if (partial && !usedOnlyBy(partial->getResult(0), {combine}))
          updateKind = std::nullopt;
      }
    }
    if (auto select = dyn_cast_or_null<arith::SelectOp>(combine);
        select && usedOnlyBy(select.getResult(), {w->op})) {
      // `x = cmp(y, x) ? y : x`: the partial value feeds the compare and the select.
      Operation *trueLoad = partialLoad(select.getTrueValue());
      Operation *falseLoad = partialLoad(select.getFalseValue());
      Operation *cmp = select.getCondition().getDefiningOp();
      if (cmp && usedOnlyBy(select.getCondition(), {select}) &&
          (trueLoad != nullptr) != (falseLoad != nullptr)) {
        partial = trueLoad ? trueLoad : falseLoad;
        Value value = trueLoad ? select.getFalseValue() : select.getTrueValue();
        Value partialValue = partial->getResult(0);
        if (usedOnlyBy(partialValue, {cmp, select})) {
          std::optional<StringRef> k =
              compareKind(select.getCondition(), value, partialValue, sameValue);
          // `cmp ? partial : value` keeps the partial value when the compare holds.
          if (k && trueLoad)
            k = *k == "max" ? StringRef("min") : StringRef("max");
          updateKind = k;
        }
      }
    }
    if (!updateKind) {
      // `if (cmp(y, x)) x = y`: a conditional store of the winning value.
      auto ifOp = dyn_cast<scf::IfOp>(w->op->getParentOp());
      if (ifOp && w->op->getBlock() == ifOp.thenBlock()) {
        Operation *cmp = ifOp.getCondition().getDefiningOp();
        if (cmp && cmp->getNumOperands() == 2) {
          for (Value operand : cmp->getOperands()) {
            Operation *load = partialLoad(operand);
            if (!load || !dominance.properlyDominates(load, ifOp) ||
                !usedOnlyBy(load->getResult(0), {cmp}) ||
                !usedOnlyBy(ifOp.getCondition(), {ifOp}))
              continue;
            if (auto k = compareKind(ifOp.getCondition(), stored, load->getResult(0), sameValue))
              updateKind = k, partial = load;
          }
        }
      }
    }
    if (!updateKind || !partial || (kind && *kind != *updateKind) ||
        !consumed.insert(partial).second)
      return std::nullopt;
    kind = updateKind;
  }
  if (!kind || consumed.size() != reads.size())
    return std::nullopt;
  return kind->str();
}

MetadataCollector::PairResult
MetadataCollector::comparePair(const Access &w, const Access &x, Operation *loop,
                               const LoopShape &shape, int64_t *distanceOut) {
  if (!w.exact || !x.exact)
    return PairResult::Unknown;
  unsigned common = std::min(w.dims.size(), x.dims.size());
  // A dimension where the two indices always differ by a non-zero constant.
  for (unsigned d = 0; d < common; ++d) {
    const IndexForm &fw = w.dims[d], &fx = x.dims[d];
    if (fw.sameTerms(fx) && fw.constant != fx.constant && index.invariantIn(fw, loop))
      return PairResult::Independent;
  }
  // Each induction variable of the loop must separate the two in some dimension.
  bool separated = true;
  std::optional<int64_t> distance;
  for (auto [ivIndex, iv] : llvm::enumerate(shape.ivs)) {
    bool ivSeparates = false;
    for (unsigned d = 0; d < common && !ivSeparates; ++d) {
      const IndexForm &fw = w.dims[d], &fx = x.dims[d];
      int64_t a = fw.coefficient(iv);
      if (a == 0 || fx.coefficient(iv) != a)
        continue;
      if (!fw.sameTerms(fx) || !index.invariantIn(fw, loop, iv)) {
        // `a*i + j` with j in a range narrower than a*step (a row-major flattened index).
        ivSeparates = separatedByRange(fw, fx, iv, a, shape.steps[ivIndex], loop);
        continue;
      }
      // a*i1 + c_w == a*i2 + c_x with i1 - i2 = k * step, k != 0
      int64_t diff = fx.constant - fw.constant;
      std::optional<int64_t> step = shape.steps[ivIndex];
      if (diff == 0 || diff % a != 0) {
        ivSeparates = true;
        continue;
      }
      int64_t delta = diff / a;
      if (step && *step != 0 && delta % *step != 0) {
        ivSeparates = true;
        continue;
      }
      int64_t iterations = step && *step != 0 ? delta / *step : delta;
      if (shape.trip && std::abs(iterations) >= *shape.trip) {
        ivSeparates = true;
        continue;
      }
      if (shape.ivs.size() == 1 && step) {
        // A proven recurrence only if every other dimension names the same element.
        bool restEqual = !w.whole && !x.whole && w.dims.size() == x.dims.size();
        for (unsigned o = 0; o < w.dims.size() && restEqual; ++o)
          restEqual = o == d || (w.dims[o] == x.dims[o] &&
                                 sameElementEachIteration(w.dims[o], loop, shape));
        if (restEqual)
          distance = iterations;
      }
    }
    separated &= ivSeparates;
  }
  if (separated)
    return PairResult::Independent;
  if (distance) {
    if (distanceOut)
      *distanceOut = *distance;
    return PairResult::Distance;
  }
  // The same element in every iteration: equal indices free of the loop's IVs,
  // whose other atoms are invariant or IVs of loops nested in this one.
  if (w.whole || x.whole || w.dims.size() != x.dims.size())
    return PairResult::Unknown;
  for (unsigned d = 0; d < w.dims.size(); ++d)
    if (w.dims[d] != x.dims[d] || !sameElementEachIteration(w.dims[d], loop, shape))
      return PairResult::Unknown;
  return PairResult::SameLocation;
}

/// An index free of the loop's own IVs whose atoms are invariant in the loop or
/// IVs of loops nested in it: every iteration of `loop` reaches the same elements.
bool MetadataCollector::sameElementEachIteration(const IndexForm &form, Operation *loop,
                                                 const LoopShape &shape) {
  return form.known && llvm::all_of(form.terms, [&](auto &term) {
           Value atom = term.first;
           return index.atomInvariantIn(atom, loop) ||
                  (index.atom(atom).kind == AtomKind::Induction &&
                   !llvm::is_contained(shape.ivs, atom));
         });
}

/// The values an induction variable takes when its loop has constant bounds.
static std::optional<std::pair<int64_t, int64_t>> inductionRange(Value iv) {
  auto arg = dyn_cast<BlockArgument>(iv);
  if (!arg)
    return std::nullopt;
  Operation *owner = arg.getOwner()->getParentOp();
  std::optional<int64_t> lb, ub, step;
  bool inclusive = false;
  if (auto f = dyn_cast<scf::ForOp>(owner); f && arg == f.getInductionVar()) {
    lb = constantIntOf(f.getLowerBound()), ub = constantIntOf(f.getUpperBound());
    step = constantIntOf(f.getStep());
  } else if (auto a = dyn_cast<affine::AffineForOp>(owner); a && a.hasConstantBounds()) {
    lb = a.getConstantLowerBound(), ub = a.getConstantUpperBound(), step = a.getStepAsInt();
  } else if (auto n = dyn_cast<omp::LoopNestOp>(owner)) {
    unsigned i = arg.getArgNumber();
    lb = constantIntOf(n.getLoopLowerBounds()[i]), ub = constantIntOf(n.getLoopUpperBounds()[i]);
    step = constantIntOf(n.getLoopSteps()[i]);
    inclusive = n.getLoopInclusive();
  }
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  auto last = llvm::checkedSub(*ub, int64_t(inclusive ? 0 : 1));
  if (!last || *last < *lb)
    return std::nullopt;
  return std::make_pair(*lb, *lb + (*last - *lb) / *step * *step);
}

/// The range of `form` without its `iv` term, where atoms invariant in `loop`
/// must appear alike in `other` (they cancel) and every other atom is the IV of
/// a loop nested in `loop` with constant bounds.
std::optional<std::pair<int64_t, int64_t>>
MetadataCollector::restRange(const IndexForm &form, const IndexForm &other, Value iv,
                             Operation *loop) {
  int64_t lo = form.constant, hi = form.constant;
  for (auto [atom, coeff] : form.terms) {
    if (atom == iv)
      continue;
    if (index.atomInvariantIn(atom, loop)) {
      if (other.coefficient(atom) != coeff)
        return std::nullopt;
      continue;
    }
    auto range = definedInside(atom, loop) ? inductionRange(atom) : std::nullopt;
    if (!range)
      return std::nullopt;
    auto a = llvm::checkedMul(coeff, range->first), b = llvm::checkedMul(coeff, range->second);
    if (!a || !b)
      return std::nullopt;
    auto newLo = llvm::checkedAdd(lo, std::min(*a, *b));
    auto newHi = llvm::checkedAdd(hi, std::max(*a, *b));
    if (!newLo || !newHi)
      return std::nullopt;
    lo = *newLo, hi = *newHi;
  }
  return std::make_pair(lo, hi);
}

/// `a*i1 + r_w == a*i2 + r_x` has no solution with i1 - i2 a non-zero multiple
/// of the step when r_w - r_x stays strictly within one step of `a*i`.
bool MetadataCollector::separatedByRange(const IndexForm &fw, const IndexForm &fx, Value iv,
                                         int64_t a, std::optional<int64_t> step, Operation *loop) {
  if (!fw.known || !fx.known || !step || *step <= 0)
    return false;
  auto rw = restRange(fw, fx, iv, loop), rx = restRange(fx, fw, iv, loop);
  auto stride = llvm::checkedMul(a, *step);
  if (!rw || !rx || !stride)
    return false;
  auto lo = llvm::checkedSub(rw->first, rx->second), hi = llvm::checkedSub(rw->second, rx->first);
  if (!lo || !hi || *lo == INT64_MIN || *hi == INT64_MIN || *stride == INT64_MIN)
    return false;
  return std::max(std::abs(*lo), std::abs(*hi)) < std::abs(*stride);
}

RootVerdict MetadataCollector::analyseRoot(Operation *loop, const LoopShape &shape,
                                           ArrayRef<const Access *> group) {
  Value root = group.front()->root;
  std::string name = keyOfRoot(root);
  size_t writes = llvm::count_if(group, [](const Access *a) { return a->write; });
  if (writes * group.size() > kMaxPairs)
    return {RootVerdict::Unknown, "too many accesses of " + name + " to compare", ""};
  bool sameLocationOnly = true, anyShared = false;
  std::string unknownWhy;
  for (const Access *w : group) {
    if (!w->write)
      continue;
    for (const Access *x : group) {
      int64_t distance = 0;
      switch (comparePair(*w, *x, loop, shape, &distance)) {
      case PairResult::Independent:
        break;
      case PairResult::Distance:
        return {RootVerdict::Carried,
                // i_write - i_other == distance
                "a recurrence: an element of " + name + " written in one iteration is " +
                    (x->write && !x->read ? "written again " : "read ") +
                    std::to_string(std::abs(distance)) + " iteration(s) " +
                    (distance < 0 ? "later" : "earlier"),
                ""};
      case PairResult::SameLocation:
        anyShared = true;
        break;
      case PairResult::Unknown:
        sameLocationOnly = false;
        if (unknownWhy.empty()) {
          bool indirect = false;
          for (const Access *a : {w, x})
            for (const IndexForm &f : a->dims)
              indirect |= patternName(f, a->exact, index) == "indirect";
          unknownWhy = (indirect ? "indirect or data-dependent accesses of " : "accesses of ") +
                       name + (indirect ? "" : " the dependence test cannot separate");
        }
        break;
      }
    }
  }
  if (!sameLocationOnly)
    return {RootVerdict::Unknown, unknownWhy, ""};
  if (!anyShared)
    return {RootVerdict::Independent, "", ""};
  // Every iteration touches the same element(s): a temporary, a reduction or a dependence.
  bool oneLocation = llvm::all_of(group, [&](const Access *a) {
    return a->dims.size() == group.front()->dims.size() &&
           llvm::equal(a->dims, group.front()->dims);
  });
  if (!oneLocation)
    return {RootVerdict::Unknown, "several fixed elements of " + name + " are written", ""};
  if (isPrivatizable(loop, group))
    return {RootVerdict::Private, "", ""};
  if (auto kind = matchReduction(group))
    return {RootVerdict::Reduction, "", *kind};
  for (const Access *r : group) {
    if (!r->read)
      continue;
    bool covered = llvm::any_of(group, [&](const Access *w) {
      return w->write && dominance.properlyDominates(w->op, r->op);
    });
    if (!covered)
      return {RootVerdict::Carried,
              name + " is read before it is written in an iteration (its value comes from the "
                     "previous one)",
              ""};
  }
  return {RootVerdict::Unknown, "the last value of " + name + " written in the loop is used later",
          ""};
}

/// Whether `v` depends on `arg` through ops inside `loop` (for a result of an
/// op with regions, through anything those regions use).
static bool dependsOn(Value v, Value arg, Operation *loop) {
  SmallVector<Value> worklist{v};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value cur = worklist.pop_back_val();
    if (cur == arg)
      return true;
    if (!seen.insert(cur).second)
      continue;
    if (seen.size() > 4096)
      return true; // too far to follow: assume it does
    Operation *def = cur.getDefiningOp();
    if (!def || !loop->isProperAncestor(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
    for (Region &region : def->getRegions())
      region.walk([&](Operation *nested) { llvm::append_range(worklist, nested->getOperands()); });
  }
  return false;
}

RootVerdict MetadataCollector::analyseIterArg(Operation *loop, BlockArgument arg, Value yielded,
                                              StringRef name) {
  if (!dependsOn(yielded, arg, loop))
    return {RootVerdict::Independent, "", ""};
  // `acc' = acc op x`, with acc used by nothing else and acc' only yielded.
  Operation *combine = stripValueCasts(yielded).getDefiningOp();
  Operation *yield = arg.getOwner()->getTerminator();
  if (combine && loop->isProperAncestor(combine) && combine->getNumOperands() == 2 &&
      usedOnlyBy(arg, {combine}) && usedOnlyBy(combine->getResult(0), {yield})) {
    if (auto kind = combiningKind(combine)) {
      Value lhs = stripValueCasts(combine->getOperand(0));
      Value rhs = stripValueCasts(combine->getOperand(1));
      bool isSub = isa<arith::SubFOp, arith::SubIOp>(combine);
      Value other = lhs == arg ? rhs : rhs == arg && !isSub ? lhs : Value();
      if (other && !dependsOn(other, arg, loop))
        return {RootVerdict::Reduction, "", kind->str()};
    }
  }
  return {RootVerdict::Carried, (name + " carries a value from one iteration to the next").str(),
          ""};
}

json::Object MetadataCollector::analyseLoop(Operation *loop, unsigned level) {
  LoopShape shape = shapeOf(loop);
  json::Object facts;
  facts["op"] = loop->getName().getStringRef().str();
  facts["trip_count"] = shape.trip ? json::Value(*shape.trip) : json::Value(nullptr);
  if (!shape.trip)
    facts["trip_expr"] = shape.tripExpr;
  facts["level"] = int64_t(level);

  Verdict verdict = Verdict::Parallel;
  std::string why;
  json::Array reductions, privates, carried, reads, writes;
  auto demote = [&](Verdict to, const std::string &reason) {
    // sequential (a proven dependence) > unknown > reduction > parallel
    auto rank = [](Verdict v) {
      return v == Verdict::Sequential  ? 3
             : v == Verdict::Unknown   ? 2
             : v == Verdict::Reduction ? 1
                                       : 0;
    };
    if (rank(to) > rank(verdict)) {
      verdict = to;
      why = reason;
    }
  };

  if (isa<scf::WhileOp>(loop))
    demote(Verdict::Sequential, "a while loop: each iteration decides whether the next one runs");

  // Side effects the test cannot see through.
  loop->walk([&](Operation *op) {
    if (op == loop)
      return;
    if (auto it = effectsOfOp.find(op); it != effectsOfOp.end())
      demote(Verdict::Unknown, "it contains " + effects[it->second.front()].why);
  });

  // Values carried through iter_args.
  if (auto loopLike = dyn_cast<LoopLikeOpInterface>(loop); loopLike && !isa<scf::WhileOp>(loop)) {
    auto yielded = loopLike.getYieldedValues();
    for (auto [i, arg, value] : llvm::enumerate(loopLike.getRegionIterArgs(), yielded)) {
      std::string name = "iter_arg#" + std::to_string(i);
      RootVerdict v = analyseIterArg(loop, arg, value, name);
      if (v.kind == RootVerdict::Reduction) {
        reductions.push_back(json::Object{{"value", name}, {"kind", v.reductionKind}});
        demote(Verdict::Reduction, "");
      } else if (v.kind == RootVerdict::Carried) {
        carried.push_back(name);
        demote(Verdict::Sequential, v.why);
      }
    }
  }

  // Memory, grouped by (root, layer).
  llvm::MapVector<std::pair<Value, unsigned>, SmallVector<const Access *>> groups;
  loop->walk([&](Operation *op) {
    if (op == loop)
      return;
    if (auto it = accessesOfOp.find(op); it != accessesOfOp.end())
      for (unsigned id : it->second)
        groups[{accesses[id].root, accesses[id].layer}].push_back(&accesses[id]);
  });
  bool writesShared = false, readsUnknownRoot = false;
  llvm::SetVector<Value> readRoots, writtenRoots;
  for (auto &[key, group] : groups) {
    Value root = key.first;
    bool local = definedInside(root, loop) && rootKind(root) != RootKind::Unknown;
    bool written = llvm::any_of(group, [](const Access *a) { return a->write; });
    if (!local) {
      for (const Access *a : group) {
        if (a->read)
          readRoots.insert(root);
        if (a->write)
          writtenRoots.insert(root);
      }
      writesShared |= written;
    }
    if (local)
      continue;
    if (rootKind(root) == RootKind::Unknown) {
      if (written)
        demote(Verdict::Unknown, "it writes through a memref of unknown origin");
      else
        readsUnknownRoot = true;
      continue;
    }
    if (!written || isa<scf::ParallelOp, affine::AffineParallelOp>(loop))
      continue;
    RootVerdict v = analyseRoot(loop, shape, group);
    std::string name = keyOfRoot(root);
    switch (v.kind) {
    case RootVerdict::Independent:
      break;
    case RootVerdict::Private:
      privates.push_back(name);
      break;
    case RootVerdict::Reduction:
      reductions.push_back(json::Object{{"array", name}, {"kind", v.reductionKind}});
      demote(Verdict::Reduction, "");
      break;
    case RootVerdict::Carried:
      carried.push_back(name);
      demote(Verdict::Sequential, v.why);
      break;
    case RootVerdict::Unknown:
      demote(Verdict::Unknown, v.why);
      break;
    }
  }
  if (readsUnknownRoot && writesShared)
    demote(Verdict::Unknown,
           "it reads through a memref of unknown origin that may alias what it writes");

  for (Value root : readRoots)
    reads.push_back(keyOfRoot(root));
  for (Value root : writtenRoots)
    writes.push_back(keyOfRoot(root));
  facts["class"] = verdictName(verdict).str();
  facts["loop_carried"] = verdict == Verdict::Parallel  ? "no"
                          : verdict == Verdict::Unknown ? "unknown"
                                                        : "yes";
  if (!why.empty())
    facts["reason"] = why;
  facts["reductions"] = std::move(reductions);
  facts["private"] = std::move(privates);
  facts["carried"] = std::move(carried);
  facts["reads"] = std::move(reads);
  facts["writes"] = std::move(writes);
  return facts;
}

//===----------------------------------------------------------------------===//
// Array analysis
//===----------------------------------------------------------------------===//

json::Object MetadataCollector::analyseArray(Value root, RootKind kind) {
  auto type = cast<BaseMemRefType>(root.getType());
  // A memref of memrefs is one array of the combined rank (rows are reached through it).
  SmallVector<int64_t> shape;
  Type element = type;
  bool ranked = true, nested = false;
  while (auto memref = dyn_cast<BaseMemRefType>(element)) {
    nested |= element != type;
    if (!memref.hasRank()) {
      ranked = false;
      element = memref.getElementType();
      break;
    }
    llvm::append_range(shape, memref.getShape());
    element = memref.getElementType();
  }
  std::string typeText, elementText;
  llvm::raw_string_ostream(typeText) << type;
  llvm::raw_string_ostream(elementText) << element;

  int64_t readCount = 0, writeCount = 0;
  SmallVector<StringRef> dims(shape.size(), "");
  for (unsigned id : accessesOfRoot.lookup(canonicalRoot(root))) {
    const Access &a = accesses[id];
    if (!a.element || !isa<memref::LoadOp, memref::StoreOp, affine::AffineLoadOp,
                           affine::AffineStoreOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp,
                           memref::CopyOp>(a.op))
      continue;
    readCount += a.read;
    writeCount += a.write;
    for (unsigned d = 0; d < dims.size(); ++d)
      dims[d] = joinPatterns(dims[d], d < a.dims.size() ? patternName(a.dims[d], a.exact, index)
                                                        : StringRef("unknown"));
  }
  bool storedIntoArray = llvm::any_of(root.getUsers(), [&](Operation *user) {
    auto store = dyn_cast<memref::StoreOp>(user);
    return store && store.getValue() == root;
  });

  json::Object facts;
  facts["op"] = kindName(kind);
  facts["type"] = typeText;
  facts["rank"] = ranked ? json::Value(int64_t(shape.size())) : json::Value(nullptr);
  facts["element_type"] = elementText;
  std::string shapeText;
  for (auto [i, extent] : llvm::enumerate(shape))
    shapeText += (i ? "x" : "") +
                 (ShapedType::isDynamic(extent) ? std::string("?") : std::to_string(extent));
  facts["shape"] = shapeText;
  facts["static_shape"] = ranked && llvm::none_of(shape, ShapedType::isDynamic);
  if (nested)
    facts["nested"] = true;
  if (storedIntoArray)
    facts["stored_into_array"] = true;
  facts["reads"] = readCount;
  facts["writes"] = writeCount;
  json::Array dimArray;
  for (StringRef d : dims)
    dimArray.push_back(d.empty() ? "none" : d.str());
  facts["dims"] = std::move(dimArray);
  return facts;
}

std::string MetadataCollector::keyOfRoot(Value root) {
  if (auto it = rootKeys.find(root); it != rootKeys.end())
    return it->second;
  std::string key = locationKey(root.getLoc());
  if (key.empty())
    key = "unknown";
  if (auto global = root.getDefiningOp<memref::GetGlobalOp>())
    key = ("@" + global.getName()).str();
  // A private or reduction copy of an OpenMP clause is named after its variable.
  if (auto arg = dyn_cast<BlockArgument>(root))
    if (auto clauses = dyn_cast<omp::BlockArgOpenMPOpInterface>(arg.getOwner()->getParentOp())) {
      SmallVector<std::pair<Value, BlockArgument>> pairs;
      clauses.getBlockArgsPairs(pairs);
      for (auto [var, blockArg] : pairs)
        if (blockArg == arg)
          key = keyOfRoot(canonicalRoot(resolveMemref(var, index).root));
    }
  return rootKeys[root] = key;
}

//===----------------------------------------------------------------------===//
// Driver of the analysis
//===----------------------------------------------------------------------===//

void MetadataCollector::run() {
  collectAccesses();
  llvm::StringMap<unsigned> loopKeyCount, arrayKeyCount;
  auto uniqueKey = [](llvm::StringMap<unsigned> &counts, Location loc) -> std::string {
    std::string key = locationKey(loc);
    if (key.empty())
      return key;
    unsigned n = ++counts[key];
    return n == 1 ? key : key + "#" + std::to_string(n);
  };
  // Keys first: loops name the arrays they touch by key.
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      if (func.isExternal())
        return;
      for (BlockArgument arg : func.getArguments())
        if (isa<BaseMemRefType>(arg.getType())) {
          rootKeys[arg] = uniqueKey(arrayKeyCount, arg.getLoc());
          records.push_back({false, op, int(arg.getArgNumber()), rootKeys[arg], {}});
        }
    } else if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      rootKeys[op->getResult(0)] = uniqueKey(arrayKeyCount, op->getLoc());
      records.push_back({false, op, -1, rootKeys[op->getResult(0)], {}});
    } else if (isRecordedLoop(op)) {
      records.push_back({true, op, -1, uniqueKey(loopKeyCount, op->getLoc()), {}});
    }
  });
  for (MetadataRecord &r : records) {
    if (r.isLoop) {
      unsigned level = 0;
      for (Operation *p = r.op->getParentOp(); p && !isa<FunctionOpInterface>(p);
           p = p->getParentOp())
        level += isRecordedLoop(p);
      r.facts = analyseLoop(r.op, level);
    } else if (r.argument >= 0) {
      Value arg = cast<FunctionOpInterface>(r.op).getArgument(r.argument);
      r.facts = analyseArray(arg, RootKind::Argument);
    } else {
      r.facts = analyseArray(r.op->getResult(0), rootKind(r.op->getResult(0)));
    }
  }
}

std::vector<MetadataRecord> mlir::arts::analyseLoopsAndArrays(ModuleOp module) {
  MetadataCollector collector(module);
  collector.run();
  return std::move(collector.records);
}
