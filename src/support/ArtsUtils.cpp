//===- ArtsUtils.cpp - helpers shared by the ARTS stage passes ------------===//

#include "support/ArtsUtils.h"
#include "support/LoweringUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <thread>

using namespace mlir;
using namespace mlir::arts;

//===----------------------------------------------------------------------===//
// Machine configuration
//===----------------------------------------------------------------------===//

static int64_t atLeastOne(IntegerAttr attr) {
  return attr ? std::max<int64_t>(1, attr.getInt()) : 1;
}

int64_t mlir::arts::moduleThreads(ModuleOp module) {
  return atLeastOne(artsDialect(module)->getThreadsAttrHelper().getAttr(module));
}

int64_t mlir::arts::moduleNodes(ModuleOp module) {
  return atLeastOne(artsDialect(module)->getNodesAttrHelper().getAttr(module));
}

void mlir::arts::setModuleMachine(ModuleOp module, const MachineConfig &config) {
  Builder b(module.getContext());
  artsDialect(module)->getThreadsAttrHelper().setAttr(module, b.getI64IntegerAttr(config.threads));
  artsDialect(module)->getNodesAttrHelper().setAttr(module, b.getI64IntegerAttr(config.nodes));
}

std::optional<OwnerRule> mlir::arts::ownerRuleOf(Operation *alloc) {
  DictionaryAttr rule = artsDialect(alloc)->getOwnerRuleAttrHelper().getAttr(alloc);
  if (!rule)
    return std::nullopt;
  return OwnerRule{atLeastOne(rule.getAs<IntegerAttr>("nodes")),
                   atLeastOne(rule.getAs<IntegerAttr>("workers_per_node"))};
}

void mlir::arts::setOwnerRule(Operation *alloc, OwnerRule rule) {
  Builder b(alloc->getContext());
  artsDialect(alloc)->getOwnerRuleAttrHelper().setAttr(
      alloc, b.getDictionaryAttr(
                 {b.getNamedAttr("nodes", b.getI64IntegerAttr(rule.nodes)),
                  b.getNamedAttr("workers_per_node", b.getI64IntegerAttr(rule.workersPerNode))}));
}

MachineConfig mlir::arts::machineFromOptions(int64_t threads, int64_t nodes) {
  MachineConfig config;
  config.threads = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  config.nodes = nodes > 0 ? nodes : 1;
  config.source = threads > 0 || nodes > 0 ? "options" : "defaults";
  return config;
}

Value mlir::arts::buildTripCount(OpBuilder &builder, Location loc, Value lb, Value ub,
                                 Value step) {
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value span = arith::MaxSIOp::create(builder, loc, arith::SubIOp::create(builder, loc, ub, lb), zero);
  return arith::CeilDivSIOp::create(builder, loc, span, step);
}

Value mlir::arts::ceilDivIndex(OpBuilder &builder, Location loc, Value a, Value b) {
  return arith::CeilDivUIOp::create(builder, loc, a, b);
}

Value mlir::arts::viewRoot(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

bool mlir::arts::isAllocation(Value v) {
  return v.getDefiningOp<memref::AllocOp>() || v.getDefiningOp<memref::AllocaOp>();
}

bool mlir::arts::isPureLeafOp(Operation *op) {
  return isMemoryEffectFree(op) && op->getNumRegions() == 0;
}

std::optional<int64_t> mlir::arts::evaluateConstant(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return c;
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp>(def))
    return evaluateConstant(def->getOperand(0));
  if (def->getNumOperands() != 2)
    return std::nullopt;
  std::optional<int64_t> a = evaluateConstant(def->getOperand(0));
  std::optional<int64_t> b = a ? evaluateConstant(def->getOperand(1)) : std::nullopt;
  if (!b)
    return std::nullopt;
  bool nonZero = *b != 0;
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case<arith::AddIOp>([&](auto) { return *a + *b; })
      .Case<arith::SubIOp>([&](auto) { return *a - *b; })
      .Case<arith::MulIOp>([&](auto) { return *a * *b; })
      .Case<arith::DivSIOp, arith::DivUIOp>(
          [&](auto) { return nonZero ? std::optional(*a / *b) : std::nullopt; })
      .Case<arith::CeilDivSIOp, arith::CeilDivUIOp>([&](auto) {
        return nonZero && *a >= 0 && *b > 0 ? std::optional((*a + *b - 1) / *b) : std::nullopt;
      })
      .Case<arith::RemSIOp, arith::RemUIOp>(
          [&](auto) { return nonZero ? std::optional(*a % *b) : std::nullopt; })
      .Case<arith::MaxSIOp, arith::MaxUIOp>([&](auto) { return std::max(*a, *b); })
      .Case<arith::MinSIOp, arith::MinUIOp>([&](auto) { return std::min(*a, *b); })
      .Default([](Operation *) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// IR queries
//===----------------------------------------------------------------------===//

llvm::SetVector<Value> mlir::arts::capturedMemrefs(Region &region) {
  llvm::SetVector<Value> captured;
  region.walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) &&
          !region.isAncestor(operand.getParentRegion()))
        captured.insert(operand);
  });
  return captured;
}

DbAllocOp mlir::arts::traceAllocation(Value ptrs) {
  while (ptrs) {
    if (auto alloc = ptrs.getDefiningOp<DbAllocOp>())
      return alloc;
    if (auto acquire = ptrs.getDefiningOp<DbAcquireOp>()) {
      ptrs = acquire.getSourcePtrs();
      continue;
    }
    auto arg = dyn_cast<BlockArgument>(ptrs);
    auto edt = arg ? dyn_cast<EdtOp>(arg.getOwner()->getParentOp()) : EdtOp();
    if (!edt || arg.getArgNumber() >= edt.getDeps().size())
      return {};
    ptrs = edt.getDeps()[arg.getArgNumber()];
  }
  return {};
}

void mlir::arts::accumulateUse(Operation *op, Value memref, MemrefUse &use) {
  if (op->getParentOfType<CriticalOp>())
    use.atomic = true;
  if (isa<memref::LoadOp, affine::AffineLoadOp, memref::DimOp>(op)) {
    use.reads |= !isa<memref::DimOp>(op);
    return;
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    if (store.getMemRef() == memref)
      use.writes = true;
    else
      use.reads = use.writes = true; // the memref itself is stored somewhere: unknown
    return;
  }
  if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
    use.writes = true;
    return;
  }
  if (isa<AtomicAddOp, memref::AtomicRMWOp, memref::GenericAtomicRMWOp>(op)) {
    use.reads = use.writes = use.atomic = true;
    return;
  }
  if (isa<memref::DeallocOp>(op))
    return;
  if (auto depend = dyn_cast<DependOp>(op)) {
    use.reads |= depend.getMode() != ArtsMode::out;
    use.writes |= depend.getMode() != ArtsMode::in;
    return;
  }
  if (isa<ViewLikeOpInterface, memref::CastOp, DbRefOp>(op)) {
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        accumulateUse(user, result, use);
    return;
  }
  // Calls, llvm ops, copies: assume both.
  use.reads = use.writes = true;
}

MemrefUse mlir::arts::usesIn(Value memref, Region *region) {
  MemrefUse use;
  for (Operation *user : memref.getUsers())
    if (!region || region->isAncestor(user->getParentRegion()))
      accumulateUse(user, memref, use);
  return use;
}

ArtsMode mlir::arts::modeFor(const MemrefUse &use) {
  if (use.writes && use.reads)
    return ArtsMode::inout;
  if (use.writes)
    return ArtsMode::out;
  return ArtsMode::in;
}

int64_t mlir::arts::allocationBytes(DbAllocOp alloc) {
  auto blockType =
      cast<MemRefType>(cast<MemRefType>(alloc.getPtrs().getType()).getElementType());
  uint64_t bytes = elementByteSize(blockType.getElementType()).value_or(1);
  for (Value size : alloc.getElementSizes())
    bytes = llvm::SaturatingMultiply<uint64_t>(
        bytes, std::max<int64_t>(evaluateConstant(size).value_or(1), 0));
  return static_cast<int64_t>(std::min<uint64_t>(bytes, uint64_t(1) << 50));
}

std::optional<std::pair<Value, ValueRange>> mlir::arts::loadOrStoreAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return std::make_pair(load.getMemref(), ValueRange(load.getIndices()));
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return std::make_pair(store.getMemref(), ValueRange(store.getIndices()));
  return std::nullopt;
}

std::optional<RowOffset> mlir::arts::rowOffsetFrom(Value index, Value iv) {
  if (index == iv)
    return RowOffset();
  Operation *def = index.getDefiningOp();
  if (isa_and_present<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp>(def)) {
    std::optional<RowOffset> inner = rowOffsetFrom(def->getOperand(0), iv);
    if (inner)
      inner->narrowed = true;
    return inner;
  }
  auto shifted = [&](Value base, Value amount, int64_t sign) -> std::optional<RowOffset> {
    std::optional<int64_t> c = getConstantIntValue(amount);
    std::optional<RowOffset> inner = c ? rowOffsetFrom(base, iv) : std::nullopt;
    if (inner)
      inner->offset += sign * *c;
    return inner;
  };
  if (auto add = dyn_cast_if_present<arith::AddIOp>(def)) {
    if (auto r = shifted(add.getLhs(), add.getRhs(), 1))
      return r;
    return shifted(add.getRhs(), add.getLhs(), 1);
  }
  if (auto sub = dyn_cast_if_present<arith::SubIOp>(def))
    return shifted(sub.getLhs(), sub.getRhs(), -1);
  return std::nullopt;
}

std::string mlir::arts::runsMoreThanOnceWhy(Operation *op) {
  for (int depth = 0; depth < 16; ++depth) {
    for (Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp()) {
      if (isa<LoopLikeOpInterface>(parent))
        return "it is inside a loop (" + parent->getName().getStringRef().str() + ")";
      auto fn = dyn_cast<func::FuncOp>(parent);
      if (!fn)
        continue;
      if (fn.getSymName() == "main")
        return "";
      auto module = fn->getParentOfType<ModuleOp>();
      std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(fn, module);
      if (uses && uses->empty())
        return ""; // called from nowhere in the module: an entry point, as main is
      if (!uses || !llvm::hasSingleElement(*uses))
        return "its function '" + fn.getSymName().str() + "' is called from more than one place";
      op = uses->begin()->getUser();
      break;
    }
    if (!op->getParentOfType<func::FuncOp>())
      return "it is not inside a function";
  }
  return "the calls leading to it are nested too deep to tell";
}
