//===- UnrollJam.cpp - chunk loops around a reduction chain, four rows at a time -===//
//
// Described in Passes.td (`UnrollJam`); below, how it decides and rewrites.
//
// A chunk loop (`scf.for {arts.chunk_loop}`, one task's share of a parallel loop) whose
// body is
//
//   <prologue: allocas, loads, stores, pure ops>
//   scf.for %j = %a to %b step %s { <loads, stores, pure ops> }    // the inner loop
//   <epilogue: loads, stores, pure ops>
//
// with an inner loop that collect-metadata classified `reduction` (its `arts.metadata`
// `class`: a value carried from iteration to iteration, `val += w[i][j] * x[j]`) spends
// its time waiting on that chain: each add waits for the one before. Four iterations of
// the chunk loop jammed into one run four independent chains through one inner loop:
//
//   scf.for %i = %lb to %main step 4*%step {               {arts.unroll_jam = 4}
//     <prologue(i)> <prologue(i+1)> <prologue(i+2)> <prologue(i+3)>
//     scf.for %j ... { <inner(i, j)> <inner(i+1, j)> <inner(i+2, j)> <inner(i+3, j)> }
//     <epilogue(i)> ... <epilogue(i+3)>
//   }
//   scf.for %i = %main to %main2 step 2*%step { <the same, two at a time> }
//   scf.for %i = %main2 to %ub step %step { <the body as it was> }  // the last one
//
// The same holds for a body of several inner loops and straight-line code between them:
// each op runs once per iteration in place, each inner loop once with the iterations'
// bodies in it. Besides a reduction chain, what pays for it is an inner loop holding a loop
// that reads what every row reads (gemm's `for k { for j { C[i][j] += A[i][k] * B[k][j] }}`
// row form): the jammed k loop runs four rows' j loops over one row of B, which the last
// three read from the first-level cache instead of streaming B once per row. A read of a
// scalar every row repeats (no index from the inner loops) is not such data.
//
// Each iteration's own operations keep their order, so every chain adds the same values
// in the same order and the results are bit-for-bit the sequential ones. Only operations of
// different iterations interleave, which the work-sharing loop allows: iterations of an
// OpenMP `for` may run at once, so they share no element one of them writes. The pass
// checks what that rests on in the IR itself: every store is to memory the iteration
// allocated or to an element computed from the chunk loop's induction variable (a
// reduction's partial result, written by every iteration, keeps the loop as it is), what
// those stores write is read only at such an element, and no op has other effects (a
// call, an atomic).
//
//===----------------------------------------------------------------------===//

#include "analysis/IndexForms.h"
#include "analysis/MetadataAnalysis.h"
#include "support/ArtsUtils.h"
#include "policy/Launching.h"
#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace mlir::arts {
#define GEN_PASS_DEF_UNROLLJAM
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
constexpr const char *kChannel = "unroll-jam";

/// The chunk loop's body in order: its inner loops, and the ops before, between and after
/// them; `why` says what makes jamming pay.
struct Shape {
  SmallVector<Operation *> ops;
  SmallVector<scf::ForOp> inners;
  scf::ForOp reason;
  std::string why;
};

/// The `class` collect-metadata gave a loop, or an empty string.
StringRef loopClass(Operation *loop) {
  auto facts = loop->getAttrOfType<DictionaryAttr>(kMetadataAttrName);
  if (!facts)
    return {};
  auto cls = facts.getAs<StringAttr>("class");
  return cls ? cls.getValue() : StringRef();
}

/// Whether `v` is an allocation made inside `loop` (an iteration's own memory).
bool isOwnAllocation(Value v, scf::ForOp loop) {
  return isAllocation(v) && loop->isAncestor(v.getDefiningOp());
}

/// Whether `v` is computed from the chunk loop's induction variable inside the loop.
bool dependsOnIv(Value v, scf::ForOp loop) {
  SmallVector<Value> work{v};
  llvm::DenseSet<Value> seen;
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == loop.getInductionVar())
      return true;
    Operation *def = x.getDefiningOp();
    if (!def || !loop->isAncestor(def) || !seen.insert(x).second)
      continue;
    work.append(def->operand_begin(), def->operand_end());
  }
  return false;
}

/// Whether the element an access names changes with the chunk loop's iteration: its
/// indices, or the block its memref is (a partitioned datablock's `db_ref`), are computed
/// from the induction variable.
bool iterationsOwn(Value memref, ValueRange indices, scf::ForOp loop) {
  return dependsOnIv(memref, loop) ||
         llvm::any_of(indices, [&](Value x) { return dependsOnIv(x, loop); });
}

/// A load inside a loop nested in `inner` that reads the same element whichever row of
/// `loop` runs (`B[k][j]` of a row-times-matrix product): jammed rows share it from a
/// register or the first-level cache instead of streaming it once each.
memref::LoadOp sharedNestedLoad(scf::ForOp inner, scf::ForOp loop) {
  memref::LoadOp found;
  inner.getBody()->walk([&](memref::LoadOp load) {
    if (found || load->getParentOfType<scf::ForOp>() == inner ||
        iterationsOwn(load.getMemRef(), load.getIndices(), loop))
      return;
    // an element the inner loops walk through (not a scalar read again and again)
    for (Value index : load.getIndices())
      for (Operation *l = load->getParentOp(); l != loop.getOperation(); l = l->getParentOp())
        if (auto nest = dyn_cast<scf::ForOp>(l); nest && dependsOnIv(index, nest))
          found = load;
  });
  return found;
}

/// Why the chunk loop cannot be jammed, or nothing; `shape` gets its parts.
std::optional<std::string> check(scf::ForOp loop, Shape &shape) {
  Block &body = *loop.getBody();
  if (loop.getNumResults())
    return std::string("the loop yields values");
  for (Operation &op : body.without_terminator()) {
    shape.ops.push_back(&op);
    if (auto inner = dyn_cast<scf::ForOp>(op)) {
      shape.inners.push_back(inner);
      continue;
    }
    if (op.getNumRegions())
      return "'" + op.getName().getStringRef().str() + "' at " + locationString(op.getLoc()) +
             " holds a region";
  }
  if (shape.inners.empty())
    return std::string("no inner loop");
  // What jamming gains: four independent chains through a reduction, or the rows sharing
  // what a nested loop reads.
  for (scf::ForOp inner : shape.inners) {
    if (loopClass(inner) == loopClassName(LoopClass::Reduction) &&
        !inner.getBody()->walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted()) {
      shape.reason = inner;
      shape.why = "is a reduction chain";
      break;
    }
    if (memref::LoadOp shared = sharedNestedLoad(inner, loop)) {
      shape.reason = inner;
      shape.why = "holds a loop reading, at " + locationString(shared.getLoc()) +
                  ", what every row reads";
      break;
    }
  }
  if (!shape.reason)
    return "no inner loop is a reduction chain or shares what a nested loop reads (first at " +
           locationString(shape.inners.front().getLoc()) + ", collect-metadata: '" +
           loopClass(shape.inners.front()).str() + "')";
  for (scf::ForOp inner : shape.inners) {
    if (inner.getNumResults())
      return "the inner loop at " + locationString(inner.getLoc()) + " yields values";
    for (Value bound : {inner.getLowerBound(), inner.getUpperBound(), inner.getStep()})
      if (!loop.isDefinedOutsideOfLoop(bound))
        return "the bounds of the inner loop at " + locationString(inner.getLoc()) +
               " change from iteration to iteration";
  }

  // Every op: a load, a store, an alloca (outside the inner loops), a loop without results
  // (inside them) or free of effects and regions.
  SmallVector<memref::StoreOp> stores;
  SmallVector<memref::LoadOp> loads;
  std::optional<std::string> why;
  auto visit = [&](Operation *op, bool mayAllocate) {
    if (auto store = dyn_cast<memref::StoreOp>(op))
      stores.push_back(store);
    else if (auto load = dyn_cast<memref::LoadOp>(op))
      loads.push_back(load);
    else if (auto nested = dyn_cast<scf::ForOp>(op); nested && !mayAllocate) {
      if (nested.getNumResults())
        why = "the loop at " + locationString(op->getLoc()) + " yields values";
    } else if (!(mayAllocate && isa<memref::AllocaOp>(op)) && !isPureLeafOp(op) &&
               !isa<scf::YieldOp>(op))
      why = "'" + op->getName().getStringRef().str() + "' at " + locationString(op->getLoc()) +
            " has memory effects or a region";
  };
  for (Operation *op : shape.ops) {
    if (auto inner = dyn_cast<scf::ForOp>(op))
      inner.getBody()->walk([&](Operation *nested) { visit(nested, false); });
    else
      visit(op, /*mayAllocate=*/true);
  }
  if (why)
    return why;

  // Stores: to the iteration's own allocation, or to an element that changes with the
  // iteration (two iterations writing one element would race, so in a work-sharing loop
  // that is the iteration's own). A store every iteration makes to one place (a
  // reduction's partial result) orders them.
  SmallVector<Value> written;
  for (memref::StoreOp store : stores) {
    Value root = viewRoot(store.getMemRef());
    if (isOwnAllocation(root, loop))
      continue;
    if (!iterationsOwn(store.getMemRef(), store.getIndices(), loop))
      return "the store at " + locationString(store.getLoc()) +
             " writes one place in every iteration";
    written.push_back(root);
  }
  // Loads of what those stores write: at an element that changes with the iteration too.
  for (memref::LoadOp load : loads) {
    Value root = viewRoot(load.getMemRef());
    if (isOwnAllocation(root, loop) || !llvm::is_contained(written, root))
      continue;
    if (!iterationsOwn(load.getMemRef(), load.getIndices(), loop))
      return "the load at " + locationString(load.getLoc()) +
             " reads one place every iteration writes";
  }
  return std::nullopt;
}

/// Puts a loop running `factor` iterations of `loop` at a time before it, as described at the
/// top of the file; `loop` keeps the iterations left over.
void jam(scf::ForOp loop, Shape &shape, int64_t factor) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value times = arith::ConstantIndexOp::create(b, loc, factor);
  Value span = arith::MulIOp::create(b, loc, step, times);
  Value extent = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb), zero);
  Value whole = arith::MulIOp::create(b, loc, arith::DivSIOp::create(b, loc, extent, span), span);
  Value mainUb = arith::AddIOp::create(b, loc, lb, whole);

  auto main = scf::ForOp::create(b, loc, lb, mainUb, span);
  main->setAttrs(loop->getAttrs());
  artsDialect(main)->getUnrollJamAttrHelper().setAttr(main, b.getI64IntegerAttr(factor));
  OpBuilder in = OpBuilder::atBlockBegin(main.getBody());
  SmallVector<IRMapping> maps(factor);
  for (int64_t k = 0; k < factor; ++k) {
    Value iv = main.getInductionVar();
    if (k) {
      Value offset = arith::MulIOp::create(
          in, loc, step, arith::ConstantIndexOp::create(in, loc, k));
      iv = arith::AddIOp::create(in, loc, iv, offset);
    }
    maps[k].map(loop.getInductionVar(), iv);
  }
  // In body order: each op once per iteration, each inner loop once with every
  // iteration's body in it.
  for (Operation *op : shape.ops) {
    auto inner = dyn_cast<scf::ForOp>(op);
    if (!inner) {
      for (int64_t k = 0; k < factor; ++k)
        in.clone(*op, maps[k]);
      continue;
    }
    auto jammed = scf::ForOp::create(in, inner.getLoc(), inner.getLowerBound(),
                                     inner.getUpperBound(), inner.getStep());
    jammed->setAttrs(inner->getAttrs());
    OpBuilder innerB = OpBuilder::atBlockBegin(jammed.getBody());
    for (int64_t k = 0; k < factor; ++k) {
      maps[k].map(inner.getInductionVar(), jammed.getInductionVar());
      for (Operation &bodyOp : inner.getBody()->without_terminator())
        innerB.clone(bodyOp, maps[k]);
    }
  }

  // The original loop runs what is left.
  loop.getLowerBoundMutable().assign(mainUb);
}

struct UnrollJam : arts::impl::UnrollJamBase<UnrollJam> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (artsDialect(loop)->getChunkLoopAttrHelper().isAttrPresent(loop) &&
          !artsDialect(loop)->getUnrollJamAttrHelper().isAttrPresent(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      Shape shape;
      if (std::optional<std::string> why = check(loop, shape)) {
        CARTS_DEBUG(kChannel, loop) << "chunk loop kept: " << *why << "\n";
        continue;
      }
      CARTS_DEBUG(kChannel, loop) << "chunk loop jammed by " << kJamRows
                                  << ": its inner loop at " << locationString(shape.reason.getLoc())
                                  << " " << shape.why << "\n";
      // four at a time, then the last two or three rows two at a time
      jam(loop, shape, kJamRows);
      jam(loop, shape, 2);
    }
  }
};
} // namespace
