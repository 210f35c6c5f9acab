//===- FoldReshapes.cpp - an allocation seen through reshaped views -------===//
//
// Described in Passes.td (`FoldReshapes`); below, how it does it.
//
// The views are what the front end makes of C's pointers to rows of a fixed
// length: `(double (*)[64]) flat` is a memref.reinterpret_cast of the flat
// array (offset 0, row-major strides), `*A` of a `double (*A)[N][M]` passed as
// a `double (*)[M]` is a memref.collapse_shape; memref.expand_shape and
// memref.cast count as views too. Every shape involved (the allocation's and
// each view's) has static extents but for the first. Indices map between two
// such shapes when one's dimensions group into the other's: a shape whose
// dimensions are finer reaches the coarser one by linearising each group
// (`A[0][i][j]` of 1x100x80 is `A'[0 * 100 + i][j]` of 100x80). The allocation
// takes the coarsest shape of the family, so no access divides an index. An
// allocation with any other use (a call, a store of the pointer) or whose
// shapes have no coarsest is left as it is.
//
//===----------------------------------------------------------------------===//

#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"

namespace mlir::arts {
#define GEN_PASS_DEF_FOLDRESHAPES
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;

namespace {

/// The extents of a shape whose every extent but the first is static.
using Extents = SmallVector<int64_t>;

/// The element count between consecutive indices of each dimension (the last is 1).
SmallVector<int64_t> strides(ArrayRef<int64_t> dims) {
  SmallVector<int64_t> out(dims.size(), 1);
  for (int k = int(dims.size()) - 2; k >= 0; --k)
    out[k] = out[k + 1] * dims[k + 1];
  return out;
}

/// `type`'s extents when every one but the first is static and its layout is row-major
/// from offset 0, else none.
std::optional<Extents> foldableShape(Type type) {
  auto mtype = dyn_cast<MemRefType>(type);
  if (!mtype || mtype.getRank() == 0)
    return std::nullopt;
  Extents dims(mtype.getShape());
  if (llvm::any_of(ArrayRef<int64_t>(dims).drop_front(), ShapedType::isDynamic))
    return std::nullopt;
  if (!mtype.getLayout().isIdentity()) {
    int64_t offset;
    SmallVector<int64_t> given;
    if (failed(mtype.getStridesAndOffset(given, offset)) || offset != 0 ||
        ArrayRef<int64_t>(given) != ArrayRef<int64_t>(strides(dims)))
      return std::nullopt;
  }
  return dims;
}

/// Whether every stride of `coarse` is one of `fine`'s: `fine`'s dimensions group into
/// `coarse`'s.
bool groupsInto(const Extents &fine, const Extents &coarse) {
  SmallVector<int64_t> f = strides(fine);
  return llvm::all_of(strides(coarse), [&](int64_t s) { return llvm::is_contained(f, s); });
}

/// Indices `from` of shape `src`, as indices of shape `dst`, into which `src` groups: each
/// index of `dst` is its group of `src`'s indices, linearised.
SmallVector<Value> mapIndices(OpBuilder &b, Location loc, const Extents &src,
                              const Extents &dst, ValueRange from) {
  SmallVector<int64_t> ss = strides(src), ds = strides(dst);
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  SmallVector<Value> out(dst.size());
  for (size_t j = 0; j < dst.size(); ++j) {
    int64_t upper = j == 0 ? std::numeric_limits<int64_t>::max() : ds[j - 1];
    Value sum;
    for (size_t k = 0; k < src.size(); ++k) {
      if (ss[k] < ds[j] || ss[k] >= upper)
        continue;
      Value term = from[k];
      if (ss[k] != ds[j])
        term = arith::MulIOp::create(b, loc, term, cst(ss[k] / ds[j]));
      sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
    }
    out[j] = sum ? sum : cst(0);
  }
  return out;
}

/// One allocation and the views of it, each with its shape.
struct Family {
  memref::AllocOp alloc;
  Extents allocShape;
  SmallVector<std::pair<Operation *, Extents>> views;
};

bool isView(Operation *op) {
  if (auto cast = dyn_cast<memref::ReinterpretCastOp>(op)) {
    auto offsets = cast.getStaticOffsets();
    return offsets.size() == 1 && offsets[0] == 0;
  }
  return isa<memref::CollapseShapeOp, memref::ExpandShapeOp, memref::CastOp>(op);
}

/// Whether `user` accesses `memref` (loads, stores into it, asks a constant extent, frees
/// it), as opposed to passing it on.
bool accesses(Operation *user, Value memref) {
  if (auto load = dyn_cast<memref::LoadOp>(user))
    return load.getMemRef() == memref;
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return store.getMemRef() == memref && store.getValueToStore() != memref;
  if (auto dim = dyn_cast<memref::DimOp>(user))
    return getConstantIntValue(dim.getIndex()).has_value();
  return isa<memref::DeallocOp>(user);
}

/// The allocation and every view reachable from it through views, when each is only
/// accessed or viewed again.
std::optional<Family> familyOf(memref::AllocOp alloc) {
  std::optional<Extents> shape = foldableShape(alloc.getType());
  if (!shape || !alloc.getSymbolOperands().empty())
    return std::nullopt;
  Family family{alloc, *shape, {}};
  SmallVector<Value> work{alloc.getResult()};
  while (!work.empty()) {
    Value memref = work.pop_back_val();
    for (Operation *user : memref.getUsers()) {
      if (accesses(user, memref))
        continue;
      std::optional<Extents> viewShape =
          isView(user) ? foldableShape(user->getResult(0).getType()) : std::nullopt;
      if (!viewShape)
        return std::nullopt;
      family.views.push_back({user, *viewShape});
      work.push_back(user->getResult(0));
    }
  }
  if (family.views.empty())
    return std::nullopt;
  return family;
}

/// A pointer variable assigned once (`double (*B)[N][M]; B = malloc(...);`): a rank-0
/// alloca of a memref, stored once where that store comes before every load of it. Its
/// loads are the stored value, so views of what it holds are views of the allocation.
void forwardPointerVariables(Operation *root) {
  SmallVector<memref::AllocaOp> slots;
  root->walk([&](memref::AllocaOp slot) {
    if (slot.getType().getRank() == 0 && isa<MemRefType>(slot.getType().getElementType()))
      slots.push_back(slot);
  });
  DominanceInfo dom(root);
  for (memref::AllocaOp slot : slots) {
    memref::StoreOp store;
    SmallVector<memref::LoadOp> loads;
    bool plain = true, viewed = false;
    for (Operation *user : slot->getUsers()) {
      if (auto s = dyn_cast<memref::StoreOp>(user); s && s.getMemRef() == slot && !store &&
                                                     s.getValueToStore() != slot.getResult())
        store = s;
      else if (auto l = dyn_cast<memref::LoadOp>(user))
        loads.push_back(l);
      else
        plain = false;
    }
    if (!plain || !store)
      continue;
    for (memref::LoadOp load : loads) {
      plain &= dom.properlyDominates(store.getOperation(), load.getOperation());
      viewed |= llvm::any_of(load->getUsers(), isView);
    }
    if (!plain || !viewed)
      continue;
    for (memref::LoadOp load : loads) {
      load.replaceAllUsesWith(store.getValueToStore());
      load.erase();
    }
    store.erase();
    slot.erase();
  }
}

/// The shape for the allocation: the coarsest of those that are loaded or stored through,
/// into which every other of them groups (so no access divides an index); none when they
/// have no coarsest (rows of 6 and rows of 4 of a 2x12 allocation). A shape only freed or
/// asked its extents does not count: flat memory read through rows is rows.
std::optional<Extents> chooseShape(const Family &family) {
  auto accessed = [](Value memref) {
    return llvm::any_of(memref.getUsers(),
                        [](Operation *u) { return isa<memref::LoadOp, memref::StoreOp>(u); });
  };
  SmallVector<Extents> used;
  memref::AllocOp alloc = family.alloc;
  if (accessed(alloc.getResult()))
    used.push_back(family.allocShape);
  for (auto &[view, shape] : family.views)
    if (accessed(view->getResult(0)))
      used.push_back(shape);
  for (const Extents &shape : used)
    if (llvm::all_of(used, [&](const Extents &other) { return groupsInto(other, shape); }))
      return shape;
  return std::nullopt;
}

void fold(Family &family, const Extents &chosen) {
  memref::AllocOp alloc = family.alloc;
  Location loc = alloc.getLoc();
  OpBuilder b(alloc);
  auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };
  // the element count of the allocation, and the new first extent that holds it all
  Value total = cst(1);
  unsigned dynamic = 0;
  for (int64_t d : family.allocShape)
    total = b.create<arith::MulIOp>(
        loc, total, ShapedType::isDynamic(d) ? alloc.getDynamicSizes()[dynamic++] : cst(d));
  int64_t inner = strides(chosen)[0];
  Value rows = arith::CeilDivUIOp::create(b, loc, total, cst(inner));
  Extents newShape = chosen;
  newShape[0] = ShapedType::kDynamic;
  auto type = MemRefType::get(newShape, alloc.getType().getElementType());
  auto folded = memref::AllocOp::create(b, loc, type, ValueRange{rows}, alloc.getAlignmentAttr());
  CARTS_DEBUG("canonicalize-memrefs", alloc)
      << "memref.alloc seen through " << family.views.size()
      << " reshaped view(s) -> one allocation of " << type << "\n";

  // the extent `k` of a shape of the family, for memref.dim
  auto extent = [&](OpBuilder &at, Location l, Operation *view, const Extents &shape,
                    int64_t k) -> Value {
    if (!ShapedType::isDynamic(shape[k]))
      return arith::ConstantIndexOp::create(at, l, shape[k]);
    if (!view)
      return alloc.getDynamicSizes()[0];
    if (auto cast = dyn_cast<memref::ReinterpretCastOp>(view))
      return getValueOrCreateConstantIndexOp(at, l, cast.getMixedSizes()[0]);
    return arith::DivUIOp::create(at, l, total,
                                     arith::ConstantIndexOp::create(at, l, strides(shape)[0]));
  };
  auto rewriteUses = [&](Value memref, Operation *view, const Extents &shape) {
    for (Operation *user : llvm::make_early_inc_range(memref.getUsers())) {
      OpBuilder at(user);
      Location l = user->getLoc();
      if (auto load = dyn_cast<memref::LoadOp>(user)) {
        SmallVector<Value> idx = mapIndices(at, l, shape, chosen, load.getIndices());
        load->setOperands(llvm::to_vector(llvm::concat<Value>(ValueRange{folded}, idx)));
      } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
        SmallVector<Value> idx = mapIndices(at, l, shape, chosen, store.getIndices());
        SmallVector<Value> operands{store.getValueToStore(), folded};
        operands.append(idx);
        store->setOperands(operands);
      } else if (auto dim = dyn_cast<memref::DimOp>(user)) {
        dim.replaceAllUsesWith(extent(at, l, view, shape, *getConstantIntValue(dim.getIndex())));
        dim.erase();
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        dealloc->setOperand(0, folded);
      }
    }
  };
  for (auto &[view, shape] : family.views)
    rewriteUses(view->getResult(0), view, shape);
  rewriteUses(alloc.getResult(), nullptr, family.allocShape);
  for (auto &view : llvm::reverse(family.views))
    view.first->erase();
  alloc.erase();
}

struct FoldReshapes : arts::impl::FoldReshapesBase<FoldReshapes> {
  void runOnOperation() override {
    forwardPointerVariables(getOperation());
    SmallVector<memref::AllocOp> allocs;
    getOperation()->walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs) {
      std::optional<Family> family = familyOf(alloc);
      if (!family)
        continue;
      if (std::optional<Extents> chosen = chooseShape(*family))
        fold(*family, *chosen);
    }
  }
};

} // namespace
