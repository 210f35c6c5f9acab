//===- Ordered.cpp - loops with an ordered region, split in two -----------===//
//
// `for (i ...) { A(i); ordered { B(i) } C(i) }` becomes two loops: the work-sharing
// loop runs A(i) and stores what B and C use from it into one buffer slot per
// iteration; after its barrier, one task runs B(i); C(i) for every i in order. OpenMP
// orders only the ordered parts among themselves, and A(j) may run before or after
// B(i) for any i and j, so the split keeps every ordering a race-free program sees.
// In a collapsed nest an iteration's slot is its number in the nest's order, and the
// ordered part runs in a nest of the same loops.
//
//===----------------------------------------------------------------------===//

#include "passes/openmp/Converter.h"
#include "support/Debug.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::arts;

namespace mlir::arts::openmp {

namespace {
/// What crosses from the part before an ordered region to the part from it on.
struct OrderedSplit {
  SmallVector<Operation *> before, after; // the body's ops, the terminator excluded
  SmallVector<Operation *> recomputed;    // pure ops of `before` on the IV alone, cloned
  llvm::SetVector<Value> values;          // other SSA values of `before` used after
  llvm::SetVector<Value> storage;         // per-thread scalars (allocas) used by both
};
} // namespace

static OrderedSplit orderedSplitOf(omp::OrderedRegionOp op) {
  OrderedSplit split;
  Block &body = *op->getBlock();
  bool seen = false;
  for (Operation &inner : body.without_terminator()) {
    seen |= &inner == op.getOperation();
    (seen ? split.after : split.before).push_back(&inner);
  }
  auto ws = op->getParentOfType<omp::WsloopOp>();
  Operation *team = ws->getParentOfType<omp::ParallelOp>();
  // `i` as an int, `i * 2`: cheaper to compute again than to keep.
  DenseSet<Value> pureOfIv;
  for (Operation *inner : split.before) {
    bool onIv = isMemoryEffectFree(inner) && inner->getNumRegions() == 0 &&
                llvm::all_of(inner->getOperands(), [&](Value v) {
                  return v.getParentBlock() != &body || isa<BlockArgument>(v) || pureOfIv.contains(v);
                });
    if (onIv) {
      split.recomputed.push_back(inner);
      pureOfIv.insert(inner->getResults().begin(), inner->getResults().end());
    }
  }
  DenseSet<Value> usedBefore;
  DenseSet<Operation *> beforeOps(split.before.begin(), split.before.end());
  for (Operation *inner : split.before)
    inner->walk([&](Operation *o) { usedBefore.insert(o->getOperands().begin(), o->getOperands().end()); });
  for (Operation *inner : split.after)
    inner->walk([&](Operation *o) {
      for (Value v : o->getOperands()) {
        // Only what the part before the region computes crosses; a value the part from the
        // region on computes itself (`a[i] * 2.0` after it) moves with it.
        Operation *def = v.getDefiningOp();
        if (def && beforeOps.contains(def) && !pureOfIv.contains(v))
          split.values.insert(v);
        else if (auto alloca = v.getDefiningOp<memref::AllocaOp>())
          // Per-thread storage is the team's (an alloca inside the parallel region, outside
          // the loop); an array of the function around the region is shared memory, which
          // the part after the region reads where the part before it wrote.
          if (team && team->isAncestor(alloca) && !ws->isAncestor(alloca) &&
              usedBefore.contains(v))
            split.storage.insert(v);
      }
    });
  return split;
}

LogicalResult Converter::checkOrdered(omp::OrderedRegionOp op) {
  auto nest = dyn_cast<omp::LoopNestOp>(op->getParentOp());
  auto ws = nest ? dyn_cast<omp::WsloopOp>(nest->getParentOp()) : nullptr;
  if (!ws || !ws.getOrdered())
    return op.emitError("omp.ordered.region must be directly in the body of a loop with the "
                        "'ordered' clause (not nested in other control flow)");
  if (std::distance(nest.getRegion().front().getOps<omp::OrderedRegionOp>().begin(),
                    nest.getRegion().front().getOps<omp::OrderedRegionOp>().end()) != 1)
    return op.emitError("a loop with more than one omp.ordered.region is not supported");
  Operation *team = ws->getParentOfType<omp::ParallelOp>();
  Operation *outer = team ? team : ws.getOperation();
  for (unsigned d = 0, e = nest.getIVs().size(); d < e; ++d)
    for (Value bound : {nest.getLoopLowerBounds()[d], nest.getLoopUpperBounds()[d],
                        nest.getLoopSteps()[d]})
      if (outer->isAncestor(bound.getParentRegion()->getParentOp()))
        return op.emitError("ordered loop whose bounds are computed inside its parallel region "
                            "is not supported");
  OrderedSplit split = orderedSplitOf(op);
  for (Value v : split.values)
    if (!v.getType().isIntOrIndexOrFloat())
      return op.emitError() << "a value of type " << v.getType()
                            << " computed before the ordered region and used in it";
  for (Value v : split.storage) {
    auto type = cast<MemRefType>(v.getType());
    if (type.getRank() != 0)
      return op.emitError() << "per-thread storage " << type
                            << " used both before and in the ordered region";
    for (Operation *user : v.getUsers()) {
      bool plain = isa<memref::LoadOp>(user) ||
                   (isa<memref::StoreOp>(user) && cast<memref::StoreOp>(user).getMemRef() == v);
      if (ws->isAncestor(user) && !plain)
        return op.emitError() << "per-thread storage " << type << " used by '"
                              << user->getName() << "' in an ordered loop";
    }
  }
  return success();
}

void Converter::splitOrderedLoop(omp::OrderedRegionOp op) {
  auto nest = cast<omp::LoopNestOp>(op->getParentOp());
  auto ws = cast<omp::WsloopOp>(nest->getParentOp());
  Operation *team = ws->getParentOfType<omp::ParallelOp>();
  Operation *outer = team ? team : ws.getOperation();
  Location loc = op.getLoc();
  OrderedSplit split = orderedSplitOf(op);
  Block &body = nest.getRegion().front();
  unsigned depth = nest.getIVs().size();

  // Buffers, one slot per iteration of the (collapsed) nest, shared by the team: allocated
  // before it, freed after.
  rewriter.setInsertionPoint(outer);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  SmallVector<Value> lbI, ubI, stepI, tripsOf;
  Value trips;
  for (unsigned d = 0; d < depth; ++d) {
    lbI.push_back(toIndex(loc, nest.getLoopLowerBounds()[d]));
    ubI.push_back(toIndex(loc, nest.getLoopUpperBounds()[d]));
    stepI.push_back(toIndex(loc, nest.getLoopSteps()[d]));
    if (nest.getLoopInclusive())
      ubI[d] = arith::AddIOp::create(rewriter, loc, ubI[d],
                                     arith::ConstantIndexOp::create(rewriter, loc, 1));
    Value span = arith::MaxSIOp::create(
        rewriter, loc, arith::SubIOp::create(rewriter, loc, ubI[d], lbI[d]), zero);
    tripsOf.push_back(arith::CeilDivSIOp::create(rewriter, loc, span, stepI[d]));
    trips = d ? arith::MulIOp::create(rewriter, loc, trips, tripsOf[d]).getResult() : tripsOf[d];
  }
  llvm::MapVector<Value, Value> buffers;
  auto bufferFor = [&](Value v, Type element) {
    auto type = MemRefType::get({ShapedType::kDynamic}, element);
    buffers[v] = memref::AllocOp::create(rewriter, loc, type, ValueRange{trips});
  };
  for (Value v : split.values)
    bufferFor(v, v.getType());
  for (Value v : split.storage)
    bufferFor(v, cast<MemRefType>(v.getType()).getElementType());
  rewriter.setInsertionPointAfter(outer);
  for (auto &[v, buffer] : buffers)
    memref::DeallocOp::create(rewriter, loc, buffer);

  // The slot of an iteration: its number in the nest's order, from (i - lb) / step of
  // every loop, the outermost first.
  auto slotOf = [&](ValueRange ivs) -> Value {
    Value slot;
    for (unsigned d = 0; d < depth; ++d) {
      Value offset = arith::SubIOp::create(rewriter, loc, toIndex(loc, ivs[d]), lbI[d]);
      Value number = arith::DivSIOp::create(rewriter, loc, offset, stepI[d]);
      slot = d ? arith::AddIOp::create(rewriter, loc,
                                       arith::MulIOp::create(rewriter, loc, slot, tripsOf[d]),
                                       number).getResult()
               : number;
    }
    return slot;
  };
  // Per-thread scalars live in their slot instead, in both loops.
  auto redirect = [&](Operation *user, Value slot) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(user);
    if (auto load = dyn_cast<memref::LoadOp>(user))
      rewriter.replaceOpWithNewOp<memref::LoadOp>(load, buffers[load.getMemRef()], ValueRange{slot});
    else if (auto store = dyn_cast<memref::StoreOp>(user))
      rewriter.replaceOpWithNewOp<memref::StoreOp>(store, store.getValue(), buffers[store.getMemRef()],
                                                   ValueRange{slot});
  };

  // The first loop keeps the part before the region and fills the slots.
  rewriter.setInsertionPointToStart(&body);
  Value slot = slotOf(nest.getIVs());
  rewriter.setInsertionPoint(op);
  for (Value v : split.values)
    memref::StoreOp::create(rewriter, loc, v, buffers[v], ValueRange{slot});
  for (Value v : split.storage)
    for (Operation *user : llvm::make_early_inc_range(v.getUsers()))
      if (llvm::any_of(split.before, [&](Operation *b) { return b->isAncestor(user); }))
        redirect(user, slot);

  // The second loop: every iteration's ordered part, then the rest, in order, in one task.
  rewriter.setInsertionPointAfter(ws);
  if (team && ws.getNowait())
    omp::BarrierOp::create(rewriter, loc);
  Block *seqBlock = nullptr;
  if (team) {
    auto single = omp::SingleOp::create(rewriter, loc, omp::SingleOperands{});
    seqBlock = rewriter.createBlock(&single.getRegion());
    omp::TerminatorOp::create(rewriter, loc);
    rewriter.setInsertionPointToStart(seqBlock);
  }
  IRMapping map;
  SmallVector<Value> seqIvs;
  Operation *seq = nullptr;
  for (unsigned d = 0; d < depth; ++d) {
    auto loop = scf::ForOp::create(rewriter, loc, lbI[d], ubI[d], stepI[d]);
    seq = seq ? seq : loop.getOperation();
    rewriter.setInsertionPointToStart(loop.getBody());
    Value iv = nest.getIVs()[d];
    seqIvs.push_back(fromIndex(loc, loop.getInductionVar(), iv.getType()));
    map.map(iv, seqIvs.back());
  }
  Value seqSlot = slotOf(seqIvs);
  Operation *end = rewriter.getInsertionBlock()->getTerminator();
  for (Value v : split.values)
    map.map(v, memref::LoadOp::create(rewriter, loc, buffers[v], ValueRange{seqSlot}));
  for (Operation *inner : split.recomputed)
    rewriter.clone(*inner, map);
  for (Operation *inner : split.after) {
    rewriter.setInsertionPoint(end);
    if (inner == op.getOperation()) {
      for (Operation &o : op.getRegion().front().without_terminator())
        rewriter.clone(o, map);
    } else {
      rewriter.clone(*inner, map);
    }
  }
  for (Value v : split.storage)
    for (Operation *user : llvm::make_early_inc_range(v.getUsers()))
      if (seq->isAncestor(user))
        redirect(user, seqSlot);
  for (Operation *inner : llvm::reverse(split.after))
    rewriter.eraseOp(inner);
  CARTS_DEBUG(kChannel, op) << "omp.ordered.region -> the loop split: " << split.values.size()
                            << " value(s) and " << split.storage.size()
                            << " per-thread scalar(s) kept per iteration; the ordered part and "
                               "what follows it run in order in one task after the loop\n";
}

} // namespace mlir::arts::openmp
