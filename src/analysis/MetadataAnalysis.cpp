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
#include "analysis/MetadataCollector.h"

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
using namespace mlir::arts::metadata;

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

namespace mlir::arts::metadata {

StringRef patternName(const IndexForm &form, bool exact, IndexAnalysis &index) {
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

StringRef joinPatterns(StringRef a, StringRef b) {
  if (a.empty() || a == b)
    return b;
  for (StringRef worst : {"unknown", "indirect"})
    if (a == worst || b == worst)
      return worst;
  return "affine"; // iv, affine and invariant indices are all affine in the IVs
}

const char *kindName(RootKind kind) {
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
// Array analysis
//===----------------------------------------------------------------------===//

ArrayFacts MetadataCollector::analyseArray(Value root, RootKind kind) {
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

  ArrayFacts facts;
  facts.op = kindName(kind);
  facts.type = typeText;
  if (ranked)
    facts.rank = shape.size();
  facts.elementType = elementText;
  for (auto [i, extent] : llvm::enumerate(shape))
    facts.shape += (i ? "x" : "") +
                   (ShapedType::isDynamic(extent) ? std::string("?") : std::to_string(extent));
  facts.staticShape = ranked && llvm::none_of(shape, ShapedType::isDynamic);
  facts.nested = nested;
  facts.storedIntoArray = storedIntoArray;
  facts.reads = readCount;
  facts.writes = writeCount;
  for (StringRef d : dims)
    facts.dims.push_back(d.empty() ? "none" : d.str());
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
          records.push_back({false, op, int(arg.getArgNumber()), rootKeys[arg], {}, {}});
        }
    } else if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      rootKeys[op->getResult(0)] = uniqueKey(arrayKeyCount, op->getLoc());
      records.push_back({false, op, -1, rootKeys[op->getResult(0)], {}, {}});
    } else if (isRecordedLoop(op)) {
      records.push_back({true, op, -1, uniqueKey(loopKeyCount, op->getLoc()), {}, {}});
    }
  });
  for (MetadataRecord &r : records) {
    if (r.isLoop) {
      unsigned level = 0;
      for (Operation *p = r.op->getParentOp(); p && !isa<FunctionOpInterface>(p);
           p = p->getParentOp())
        level += isRecordedLoop(p);
      r.loop = analyseLoop(r.op, level);
    } else if (r.argument >= 0) {
      Value arg = cast<FunctionOpInterface>(r.op).getArgument(r.argument);
      r.array = analyseArray(arg, RootKind::Argument);
    } else {
      r.array = analyseArray(r.op->getResult(0), rootKind(r.op->getResult(0)));
    }
  }
}

} // namespace mlir::arts::metadata

std::vector<MetadataRecord> mlir::arts::analyseLoopsAndArrays(ModuleOp module) {
  MetadataCollector collector(module);
  collector.run();
  return std::move(collector.records);
}

StringRef mlir::arts::loopClassName(LoopClass c) {
  switch (c) {
  case LoopClass::Parallel:
    return "parallel";
  case LoopClass::Reduction:
    return "reduction";
  case LoopClass::Sequential:
    return "sequential";
  case LoopClass::Unknown:
    return "unknown";
  }
  return "unknown";
}
