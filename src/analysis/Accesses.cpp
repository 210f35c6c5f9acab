//===- Accesses.cpp - memory accesses by storage root ---------------------===//
//
// Every read and write of memory, seen from its storage root (through
// pointer-of-pointer rows, casts and views), and the effects of opaque calls.
//
//===----------------------------------------------------------------------===//

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

namespace mlir::arts::metadata {

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


Resolved resolveMemref(Value memref, IndexAnalysis &index, unsigned depth) {
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

} // namespace mlir::arts::metadata
