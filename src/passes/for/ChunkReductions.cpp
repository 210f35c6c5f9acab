//===- ChunkReductions.cpp - reductions of chunk and worker tasks ---------===//
//
// Part of for-lowering: see ChunkReductions.h.
//
//===----------------------------------------------------------------------===//

#include "passes/for/ChunkReductions.h"

#include "policy/Routing.h"
#include "support/ArtsUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::arts;
using namespace mlir::arts::forlowering;

/// Identity of a reduction kind for `type`. The bitwise and logical kinds and the
/// unsigned ones exist for integers only (the front end refuses them on floats).
static TypedAttr reductionIdentity(ReductionKind kind, Type type, Builder &b) {
  if (auto ft = dyn_cast<FloatType>(type)) {
    const auto &sem = ft.getFloatSemantics();
    switch (kind) {
    case ReductionKind::add: return b.getFloatAttr(ft, 0.0);
    case ReductionKind::mul: return b.getFloatAttr(ft, 1.0);
    case ReductionKind::max: return b.getFloatAttr(ft, llvm::APFloat::getInf(sem, /*Negative=*/true));
    case ReductionKind::min: return b.getFloatAttr(ft, llvm::APFloat::getInf(sem, false));
    default: llvm_unreachable("integer-only reduction kind on a float");
    }
  }
  auto it = cast<IntegerType>(type);
  unsigned w = it.getWidth();
  switch (kind) {
  case ReductionKind::add:
  case ReductionKind::bor:
  case ReductionKind::bxor:
  case ReductionKind::lor:
  case ReductionKind::umax: return b.getIntegerAttr(it, 0);
  case ReductionKind::mul:
  case ReductionKind::land: return b.getIntegerAttr(it, 1);
  case ReductionKind::max: return b.getIntegerAttr(it, llvm::APInt::getSignedMinValue(w));
  case ReductionKind::min: return b.getIntegerAttr(it, llvm::APInt::getSignedMaxValue(w));
  case ReductionKind::umin:
  case ReductionKind::band: return b.getIntegerAttr(it, llvm::APInt::getAllOnes(w));
  }
  llvm_unreachable("reduction kind");
}

static Value combine(OpBuilder &b, Location loc, ReductionKind kind, Value lhs, Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  // `&&` and `||` give 0 or 1, as C does.
  auto truth = [&](Value v) -> Value {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(v.getType()));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zero);
  };
  switch (kind) {
  case ReductionKind::add:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, lhs, rhs) : arith::AddIOp::create(b, loc, lhs, rhs);
  case ReductionKind::mul:
    return isFloat ? (Value)arith::MulFOp::create(b, loc, lhs, rhs) : arith::MulIOp::create(b, loc, lhs, rhs);
  case ReductionKind::max:
    return isFloat ? (Value)arith::MaxNumFOp::create(b, loc, lhs, rhs) : arith::MaxSIOp::create(b, loc, lhs, rhs);
  case ReductionKind::min:
    return isFloat ? (Value)arith::MinNumFOp::create(b, loc, lhs, rhs) : arith::MinSIOp::create(b, loc, lhs, rhs);
  case ReductionKind::umax: return arith::MaxUIOp::create(b, loc, lhs, rhs);
  case ReductionKind::umin: return arith::MinUIOp::create(b, loc, lhs, rhs);
  case ReductionKind::band: return arith::AndIOp::create(b, loc, lhs, rhs);
  case ReductionKind::bor: return arith::OrIOp::create(b, loc, lhs, rhs);
  case ReductionKind::bxor: return arith::XOrIOp::create(b, loc, lhs, rhs);
  case ReductionKind::land:
    return arith::ExtUIOp::create(b, loc, lhs.getType(),
                                  arith::AndIOp::create(b, loc, truth(lhs), truth(rhs)));
  case ReductionKind::lor:
    return arith::ExtUIOp::create(b, loc, lhs.getType(),
                                  arith::OrIOp::create(b, loc, truth(lhs), truth(rhs)));
  }
  llvm_unreachable("reduction kind");
}

/// Indices addressing the single element of a one-element accumulator.
static SmallVector<Value> zeroIndices(OpBuilder &b, Location loc, MemRefType type) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return SmallVector<Value>(type.getRank(), zero);
}

/// Indices of element `e` of an accumulator (a scalar, or a 1-D array: an array
/// section reduction keeps one partial per element).
static SmallVector<Value> elementIndices(OpBuilder &b, Location loc, MemRefType type, int64_t e) {
  if (type.getRank() == 0)
    return {};
  SmallVector<Value> at = zeroIndices(b, loc, type);
  at.back() = arith::ConstantIndexOp::create(b, loc, e);
  return at;
}

/// The host-side view of a team accumulator `acc` (a db_ref of a team view).
static Value hostView(OpBuilder &b, Location loc, Value acc, EdtOp parallel) {
  auto ref = acc.getDefiningOp<DbRefOp>();
  if (!ref)
    return {};
  auto view = dyn_cast<BlockArgument>(ref.getPtrs());
  if (!view || view.getOwner() != &parallel.getBody().front())
    return {};
  auto acq = parallel.getDeps()[view.getArgNumber()].getDefiningOp<DbAcquireOp>();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  return DbRefOp::create(b, loc, acc.getType(), acq.getSourcePtrs(), ValueRange{zero});
}

/// A partials datablock of `count` slots (at `b`) for each reduction of `loop`.
LogicalResult mlir::arts::forlowering::planReductions(OpBuilder &b, Location loc, ForOp loop, EdtOp parallel,
                             Value count, SmallVector<Reduction> &reductions, NodeSplit split) {
  auto kinds = loop.getReductionKinds();
  if (!kinds)
    return success();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (auto [acc, kindAttr] : llvm::zip(loop.getReductionAccs(), *kinds)) {
    auto kind = cast<ReductionKindAttr>(kindAttr).getValue();
    auto accType = cast<MemRefType>(acc.getType());
    if (!accType.hasStaticShape() || (accType.getRank() > 1 && accType.getNumElements() != 1))
      return loop.emitError("reduction accumulator must be a scalar or a 1-D array of static "
                            "size, got ")
             << accType;
    Value host = hostView(b, loc, acc, parallel);
    if (!host)
      return loop.emitError("reduction accumulator is not a datablock of the team");
    auto partialType = MemRefType::get({ShapedType::kDynamic}, accType.getElementType());
    Value elements = arith::ConstantIndexOp::create(b, loc, accType.getNumElements());
    Value route0 = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
    auto table = [&](PartitionMode partition, Value blocks, Value slots) {
      return DbAllocOp::create(b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI64Type()),
                               MemRefType::get({ShapedType::kDynamic}, partialType),
                               ArtsModeAttr::get(b.getContext(), ArtsMode::inout),
                               DbModeAttr::get(b.getContext(), DbMode::write),
                               PartitionModeAttr::get(b.getContext(), partition), route0,
                               ValueRange{blocks},
                               ValueRange{arith::MulIOp::create(b, loc, slots, elements)}, Value(),
                               nullptr);
    };
    DbAllocOp nodeParts = nullptr;
    Value slots = count;
    if (split.nodes > 1) {
      Value nodes = arith::ConstantIndexOp::create(b, loc, split.nodes);
      // Block k on node k: the owner rule over as many blocks as nodes, one worker each.
      nodeParts = table(PartitionMode::block, nodes, count);
      setOwnerRule(nodeParts, {split.nodes, 1});
      slots = nodes;
    }
    auto partials = table(PartitionMode::coarse, one, slots);
    reductions.push_back({acc, host, kind, partials, accType, nodeParts});
  }
  return success();
}

/// Every task writes its own slots of the partials tables: `concurrent`
/// acquires before `task`, the views as new task arguments.
/// The node task `slot` of `count` is routed to, as an index.
static Value nodeOfSlot(OpBuilder &b, Location loc, Value slot, Value count, NodeSplit split) {
  Value route = buildRoute(b, loc, slot, count, split.nodes, split.workersPerNode);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), route);
}

/// A `mode` acquire of `table` (at `b`): block `block` alone when given, else all of it.
static DbAcquireOp acquireTable(OpBuilder &b, Location loc, DbAllocOp table, ArtsMode mode,
                                Value block = {}) {
  SmallVector<Value> offsets, sizes;
  if (block) {
    offsets.push_back(block);
    sizes.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  return DbAcquireOp::create(b, loc, table.getGuids().getType(), table.getPtrs().getType(),
                             ArtsModeAttr::get(b.getContext(), mode), table.getGuids(),
                             table.getPtrs(), ValueRange{}, offsets, sizes, nullptr, nullptr,
                             nullptr);
}

SmallVector<Value> mlir::arts::forlowering::acquirePartials(EdtOp task, ArrayRef<Reduction> reductions,
                                                            Value slot, Value count,
                                                            NodeSplit split) {
  OpBuilder b(task);
  Location loc = task.getLoc();
  Block &body = task.getBody().front();
  SmallVector<Value> views;
  Value node;
  for (const Reduction &r : reductions) {
    if (r.nodeParts && !node)
      node = nodeOfSlot(b, loc, slot, count, split);
    DbAllocOp nodeParts = r.nodeParts;
    auto acq = nodeParts ? acquireTable(b, loc, nodeParts, ArtsMode::concurrent, node)
                           : acquireTable(b, loc, r.partials, ArtsMode::concurrent);
    task.getDepsMutable().append(acq.getPtrs());
    views.push_back(body.addArgument(acq.getPtrs().getType(), loc));
    OpBuilder rb(body.getTerminator());
    DbReleaseOp::create(rb, loc, views.back());
  }
  return views;
}

/// Private accumulators at `b`, initialised with the operator's identity and
/// standing in for each `from` accumulator in `mapping`.
SmallVector<Value> mlir::arts::forlowering::privateAccumulators(OpBuilder &b, Location loc,
                                       ArrayRef<Reduction> reductions, IRMapping &mapping,
                                       ValueRange from) {
  SmallVector<Value> privates;
  for (auto [k, r] : llvm::enumerate(reductions)) {
    Value priv = memref::AllocaOp::create(b, loc, r.accType);
    Value init = arith::ConstantOp::create(b, loc, reductionIdentity(r.kind, r.accType.getElementType(), b));
    for (int64_t e = 0; e < r.accType.getNumElements(); ++e)
      memref::StoreOp::create(b, loc, init, priv, elementIndices(b, loc, r.accType, e));
    mapping.map(from.empty() ? r.teamAcc : from[k], priv);
    privates.push_back(priv);
  }
  return privates;
}

/// Each private accumulator into slot `slot` of its partials table.
void mlir::arts::forlowering::storePartials(OpBuilder &b, Location loc, ArrayRef<Reduction> reductions,
                   ArrayRef<Value> privates, ArrayRef<Value> views, Value slot) {
  for (auto [r, priv, view] : llvm::zip(reductions, privates, views)) {
    Value zeroIdx = arith::ConstantIndexOp::create(b, loc, 0);
    Value table = DbRefOp::create(b, loc, cast<MemRefType>(view.getType()).getElementType(), view, ValueRange{zeroIdx});
    int64_t n = r.accType.getNumElements();
    Value first = arith::MulIOp::create(b, loc, slot, arith::ConstantIndexOp::create(b, loc, n));
    for (int64_t e = 0; e < n; ++e) {
      Value value = memref::LoadOp::create(b, loc, priv, elementIndices(b, loc, r.accType, e));
      Value at = arith::AddIOp::create(b, loc, first, arith::ConstantIndexOp::create(b, loc, e));
      memref::StoreOp::create(b, loc, value, table, ValueRange{at});
    }
  }
}

void mlir::arts::forlowering::combineOnNodes(OpBuilder &b, Location loc,
                                             ArrayRef<Reduction> reductions, Value count,
                                             NodeSplit split) {
  if (reductions.empty() || !reductions.front().nodeParts)
    return;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto nodes = scf::ForOp::create(b, loc, zero, arith::ConstantIndexOp::create(b, loc, split.nodes), one);
  OpBuilder lb = OpBuilder::atBlockBegin(nodes.getBody());
  lb.setInsertionPoint(nodes.getBody()->getTerminator());
  Value node = nodes.getInductionVar();
  SmallVector<Value> deps;
  for (const Reduction &r : reductions) {
    DbAllocOp nodeParts = r.nodeParts;
    deps.push_back(acquireTable(lb, loc, nodeParts, ArtsMode::in, node).getPtrs());
    deps.push_back(acquireTable(lb, loc, r.partials, ArtsMode::concurrent).getPtrs());
  }
  Value route = arith::IndexCastOp::create(lb, loc, lb.getI32Type(), node);
  auto task = EdtOp::create(lb, loc, EdtTypeAttr::get(lb.getContext(), EdtType::task),
                            EdtConcurrencyAttr::get(lb.getContext(), EdtConcurrency::internode),
                            route, deps, nullptr, nullptr, nullptr);
  Block *body = lb.createBlock(&task.getBody());
  for (Value dep : deps)
    body->addArgument(dep.getType(), loc);
  OpBuilder tb = OpBuilder::atBlockEnd(body);
  YieldOp::create(tb, loc);
  tb.setInsertionPoint(body->getTerminator());
  for (auto [k, r] : llvm::enumerate(reductions)) {
    auto slotsOf = [&](Value view) {
      return DbRefOp::create(tb, loc, cast<MemRefType>(view.getType()).getElementType(), view,
                             ValueRange{zero});
    };
    Value mine = slotsOf(body->getArgument(2 * k));
    Value home = slotsOf(body->getArgument(2 * k + 1));
    Value acc = memref::AllocaOp::create(tb, loc, r.accType);
    Value init = arith::ConstantOp::create(tb, loc, reductionIdentity(r.kind, r.accType.getElementType(), tb));
    int64_t n = r.accType.getNumElements();
    Value width = arith::ConstantIndexOp::create(tb, loc, n);
    for (int64_t e = 0; e < n; ++e)
      memref::StoreOp::create(tb, loc, init, acc, elementIndices(tb, loc, r.accType, e));
    // The slots of the tasks routed here, in slot order.
    auto slots = scf::ForOp::create(tb, loc, zero, count, one);
    OpBuilder sb = OpBuilder::atBlockBegin(slots.getBody());
    sb.setInsertionPoint(slots.getBody()->getTerminator());
    Value slot = slots.getInductionVar();
    Value here = arith::CmpIOp::create(sb, loc, arith::CmpIPredicate::eq,
                                       nodeOfSlot(sb, loc, slot, count, split), node);
    auto ifHere = scf::IfOp::create(sb, loc, TypeRange{}, here, /*withElse=*/false);
    OpBuilder ib = ifHere.getThenBodyBuilder();
    Value first = arith::MulIOp::create(ib, loc, slot, width);
    for (int64_t e = 0; e < n; ++e) {
      SmallVector<Value> at = elementIndices(ib, loc, r.accType, e);
      Value index = arith::AddIOp::create(ib, loc, first, arith::ConstantIndexOp::create(ib, loc, e));
      Value part = memref::LoadOp::create(ib, loc, mine, ValueRange{index});
      Value current = memref::LoadOp::create(ib, loc, acc, at);
      memref::StoreOp::create(ib, loc, combine(ib, loc, r.kind, current, part), acc, at);
    }
    Value homeFirst = arith::MulIOp::create(tb, loc, node, width);
    for (int64_t e = 0; e < n; ++e) {
      Value index = arith::AddIOp::create(tb, loc, homeFirst, arith::ConstantIndexOp::create(tb, loc, e));
      memref::StoreOp::create(tb, loc, memref::LoadOp::create(tb, loc, acc, elementIndices(tb, loc, r.accType, e)),
                              home, ValueRange{index});
    }
  }
  for (Value view : body->getArguments())
    DbReleaseOp::create(tb, loc, view);
  b.setInsertionPointAfter(nodes);
}

/// After the epoch: the partials combined in slot order into the accumulator.
void mlir::arts::forlowering::combinePartials(OpBuilder &b, Location loc, ArrayRef<Reduction> reductions, Value count) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (const Reduction &r : reductions) {
    DbAllocOp partials = r.partials;
    Value table = DbRefOp::create(b, loc, cast<MemRefType>(partials.getPtrs().getType()).getElementType(),
                                  partials.getPtrs(), ValueRange{zero});
    auto combineLoop = scf::ForOp::create(b, loc, zero, count, one);
    OpBuilder cb = OpBuilder::atBlockBegin(combineLoop.getBody());
    cb.setInsertionPoint(combineLoop.getBody()->getTerminator());
    int64_t n = r.accType.getNumElements();
    Value first = arith::MulIOp::create(cb, loc, combineLoop.getInductionVar(),
                                        arith::ConstantIndexOp::create(cb, loc, n));
    for (int64_t e = 0; e < n; ++e) {
      SmallVector<Value> at = elementIndices(cb, loc, r.accType, e);
      Value current = memref::LoadOp::create(cb, loc, r.hostAcc, at);
      Value slot = arith::AddIOp::create(cb, loc, first, arith::ConstantIndexOp::create(cb, loc, e));
      Value part = memref::LoadOp::create(cb, loc, table, ValueRange{slot});
      memref::StoreOp::create(cb, loc, combine(cb, loc, r.kind, current, part), r.hostAcc, at);
    }
    b.setInsertionPointAfter(combineLoop);
    DbFreeOp::create(b, loc, partials.getGuids(), partials.getPtrs());
    if (DbAllocOp nodeParts = r.nodeParts)
      DbFreeOp::create(b, loc, nodeParts.getGuids(), nodeParts.getPtrs());
  }
}
