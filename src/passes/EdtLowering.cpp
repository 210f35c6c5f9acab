//===- EdtLowering.cpp - tasks become outlined EDT functions --------------===//
//
// Described in Passes.td (`EdtLowering`); below, how it does it.
//
// The first pass of pre-lowering. Every `arts.edt` becomes a private function
// with the EDT ABI plus, at the task's place, the code that creates it:
//
//   %pv  = arts.edt_param_pack(<packed values>) : memref<?xi64>
//   %edt = arts.edt_create @__arts_edt_<n>(%pv : memref<?xi64>) deps(%depc) route(%r)
//   arts.rec_dep %edt slot(%first) (%guidSubtable : ...) modes [#arts.mode<...>]  // per acquire
//
// Tasks are outlined innermost first, so a task that creates tasks is outlined
// with their creation code already in its body. `arts.depend` ops go first:
// create-dbs has turned them into acquires.
//
// Slots: the acquires of a task, in dependency order, each fill as many
// consecutive slots as they select blocks (row-major over the acquired box).
// Inside the outlined function each dependency's view table (the body's block
// argument) is rebuilt with exactly those blocks, in slot order, from
// `arts.dep_gep` and the block shape, so `arts.db_ref %view[%i]` keeps
// indexing the acquired range.
//
// Parameters, in this order, each value once: per dependency its acquired
// extents then its block sizes (traced to the arts.db_alloc the acquire
// selects from), then the scalars the body captures (in order of first use),
// then, per GUID table of an allocation the body creates tasks on without
// acquiring it, its address and extents. Constants are re-created in the
// function instead of being packed.
//
// The view tables live on the task's stack (memref.alloca): LLVM then knows
// that no store into a block can change them, keeps the descriptors it loads
// from them in registers and can vectorise the loops over the blocks. (A heap
// table is aligned through ptrtoint/inttoptr, which hides where it comes from.)
//
// Before outlining, loops that select blocks by their index are split where
// the block changes (edt/BlockSegments.h).
//
//===----------------------------------------------------------------------===//

#include "passes/edt/BlockSegments.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "support/LoweringUtils.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_EDTLOWERING
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

static constexpr llvm::StringLiteral kChannel = "edt-lowering";

static bool hasIdentityLayout(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getLayout().isIdentity();
}

static bool isPackableScalar(Type type) {
  if (type.isIndex() || type.isF32() || type.isF64() || isa<LLVM::LLVMPointerType>(type))
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() <= 64;
}

static std::string typeList(ValueRange values) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(values, os, [&](Value v) { os << v.getType(); });
  return text;
}

/// The op that produced a handle table (its db_alloc or db_acquire), looking
/// through the block arguments of enclosing (not yet outlined) tasks.
static Operation *tableOrigin(Value table) {
  while (auto arg = dyn_cast<BlockArgument>(table)) {
    auto edt = dyn_cast<EdtOp>(arg.getOwner()->getParentOp());
    if (!edt)
      return nullptr;
    table = edt.getDeps()[arg.getArgNumber()];
  }
  Operation *def = table.getDefiningOp();
  return isa_and_nonnull<DbAllocOp, DbAcquireOp>(def) ? def : nullptr;
}

namespace {
/// One dependency of a task: the acquire it comes from and the allocation
/// whose block shape the outlined function needs.
struct Dependency {
  DbAcquireOp acquire;
  DbAllocOp alloc;
  MemRefType viewType;  // the acquired payload table = the body's block argument
  MemRefType blockType; // one block
  bool rankReduced;     // the acquire drops the dimensions its indices pin
};

/// How a value defined outside the task reaches the outlined function.
enum class CaptureKind {
  Packed,         // a scalar, one parameter word
  Rematerialized, // a constant-like op, cloned
  DepGuids,       // the GUID table of one of the task's own acquires: rebuilt from depv
  GuidsByAddress, // an allocation's GUID table the body creates tasks on, or an array its
                  // function was given (shared memory on one node): address + extents
};

struct Capture {
  Value value;
  CaptureKind kind;
  unsigned dep = 0;
};

/// Everything decided about one task before the IR changes.
struct TaskPlan {
  EdtOp edt;
  Operation *hostFunc;
  std::string name;
  SmallVector<Dependency> deps;
  SmallVector<Capture> captures;
};

/// Host-side values of one dependency at the creation site.
struct HostDependency {
  Value guidTable;               // what rec_dep reads: the whole table or a subview
  SmallVector<Value> extents;    // of the acquired box, one per view dimension
  SmallVector<Value> blockSizes; // one per block dimension
  Value count;                   // number of slots
};

struct EdtLowering : arts::impl::EdtLoweringBase<EdtLowering> {
  void runOnOperation() override;

private:
  LogicalResult analyze(EdtOp edt, TaskPlan &plan);
  HostDependency lowerAcquire(OpBuilder &b, Dependency dep);
  void rewrite(TaskPlan &plan);
  LogicalResult eraseLoweredAcquires();

  std::string nextFunctionName();
  unsigned nextIndex = 0;
  SymbolTable *symbols = nullptr;
};
} // namespace

std::string EdtLowering::nextFunctionName() {
  while (true) {
    std::string name = "__arts_edt_" + std::to_string(nextIndex++);
    if (!symbols->lookup(name))
      return name;
  }
}

LogicalResult EdtLowering::analyze(EdtOp edt, TaskPlan &plan) {
  plan.edt = edt;
  if (edt.getEdtType() == EdtType::parallel)
    return edt.emitError("a parallel task cannot be outlined as one EDT "
                         "(for-lowering splits parallel tasks into chunk tasks first)");
  WalkResult unsupported = edt.getBody().walk([&](Operation *op) {
    if (isa<ForOp, BarrierOp>(op)) {
      op->emitError() << "'" << op->getName() << "' inside a task cannot be outlined "
                      << "(concurrency-opt and epochs must run first)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (unsupported.wasInterrupted())
    return failure();

  for (auto [i, dep] : llvm::enumerate(edt.getDeps())) {
    auto acquire = dep.getDefiningOp<DbAcquireOp>();
    if (!acquire)
      return edt.emitError("dependency #") << i << " does not come from arts.db_acquire";
    // Offsets index the GUID source, the views come from the payload source:
    // they must be the same table.
    Operation *origin = tableOrigin(acquire.getSourcePtrs());
    if (!origin || origin != tableOrigin(acquire.getSourceGuids()))
      return acquire.emitError("the GUID and payload sources of this acquire are not the two "
                               "halves of one datablock table");
    DbAllocOp alloc = traceAllocation(acquire.getSourcePtrs());
    if (!alloc)
      return acquire.emitError("cannot trace this acquire to the arts.db_alloc it selects "
                               "from (needed for the block shape)");
    auto viewType = cast<MemRefType>(acquire.getPtrs().getType());
    auto guidType = cast<MemRefType>(acquire.getGuids().getType());
    auto blockType = dyn_cast<MemRefType>(viewType.getElementType());
    if (!hasIdentityLayout(viewType) || !hasIdentityLayout(guidType) || !blockType ||
        !hasIdentityLayout(blockType))
      return acquire.emitError("acquired tables and blocks must be memrefs with the identity "
                               "layout, got ")
                 << guidType << " and " << viewType;
    int64_t sourceRank = cast<MemRefType>(acquire.getSourcePtrs().getType()).getRank();
    int64_t pinned = acquire.getIndices().size();
    bool rankReduced = viewType.getRank() != sourceRank;
    if (rankReduced && (pinned == 0 || viewType.getRank() != sourceRank - pinned))
      return acquire.emitError("acquired table of rank ")
                 << viewType.getRank() << " from a rank-" << sourceRank << " table with "
                 << pinned << " pinned indices (expects rank " << sourceRank << " or "
                 << sourceRank - pinned << ")";
    if ((int64_t)alloc.getElementSizes().size() != blockType.getRank())
      return acquire.emitError("block type ")
                 << blockType << " does not match the " << alloc.getElementSizes().size()
                 << " element sizes of its allocation";
    plan.deps.push_back({acquire, alloc, viewType, blockType, rankReduced});
  }

  // Values defined outside the task, in order of first use (pre-order).
  llvm::SetVector<Value> captured;
  Region &body = edt.getBody();
  body.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!body.isAncestor(operand.getParentRegion()))
        captured.insert(operand);
  });
  for (Value v : captured) {
    if (isRematerializable(v)) {
      plan.captures.push_back({v, CaptureKind::Rematerialized});
      continue;
    }
    if (isa<MemRefType>(v.getType())) {
      auto ownDep = llvm::find_if(plan.deps, [&](Dependency &dep) {
        return dep.acquire.getGuids() == v;
      });
      if (ownDep != plan.deps.end()) {
        plan.captures.push_back(
            {v, CaptureKind::DepGuids, (unsigned)(ownDep - plan.deps.begin())});
        continue;
      }
      auto alloc = v.getDefiningOp<DbAllocOp>();
      if (alloc && alloc.getGuids() == v) {
        if (!hasIdentityLayout(v.getType()))
          return edt.emitError("GUID table of type ")
                     << v.getType() << " must have the identity layout";
        plan.captures.push_back({v, CaptureKind::GuidsByAddress});
        continue;
      }
      auto arg = dyn_cast<BlockArgument>(v);
      if (arg && isa<func::FuncOp>(arg.getOwner()->getParentOp()) &&
          hasIdentityLayout(v.getType())) {
        plan.captures.push_back({v, CaptureKind::GuidsByAddress});
        continue;
      }
      bool isDatablock = v.getDefiningOp<DbAllocOp>() || v.getDefiningOp<DbAcquireOp>() ||
                         (isa<BlockArgument>(v) &&
                          isa<EdtOp>(cast<BlockArgument>(v).getOwner()->getParentOp()));
      InFlightDiagnostic diag =
          isDatablock ? edt.emitError("task uses a datablock table it does not acquire "
                                      "(add it to the task's dependencies)")
                      : edt.emitError("task captures a memref that is not a datablock (")
                            << v.getType() << ")";
      diag.attachNote(v.getLoc()) << "captured value defined here";
      return diag;
    }
    if (!isPackableScalar(v.getType())) {
      InFlightDiagnostic diag = edt.emitError("task captures a value of type ")
                                << v.getType() << " that cannot be passed as an EDT parameter";
      diag.attachNote(v.getLoc()) << "captured value defined here";
      return diag;
    }
    plan.captures.push_back({v, CaptureKind::Packed});
  }
  return success();
}

HostDependency EdtLowering::lowerAcquire(OpBuilder &b, Dependency dep) {
  DbAcquireOp acquire = dep.acquire;
  Location loc = acquire.getLoc();
  HostDependency host;
  Value source = acquire.getSourceGuids();
  auto sourceType = cast<MemRefType>(source.getType());
  auto alloc = source.getDefiningOp<DbAllocOp>();

  // Extent of the source table along `d`: static, the allocation's size, or its dim.
  auto sourceExtent = [&](int64_t d) -> Value {
    if (!sourceType.isDynamicDim(d))
      return arith::ConstantIndexOp::create(b, loc, sourceType.getDimSize(d));
    if (alloc)
      return alloc.getSizes()[d];
    return memref::DimOp::create(b, loc, source, d);
  };

  size_t pinned = acquire.getIndices().size();
  size_t ranged = acquire.getOffsets().size();
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<Value> boxExtents; // one per source dimension
  for (int64_t d = 0; d < sourceType.getRank(); ++d) {
    Value offset, size;
    if ((size_t)d < pinned) {
      offset = acquire.getIndices()[d];
      size = arith::ConstantIndexOp::create(b, loc, 1);
    } else if ((size_t)d < pinned + ranged) {
      offset = acquire.getOffsets()[d - pinned];
      size = acquire.getSizes()[d - pinned];
    } else {
      size = sourceExtent(d);
    }
    offsets.push_back(offset ? getAsOpFoldResult(offset) : OpFoldResult(b.getIndexAttr(0)));
    sizes.push_back(getAsOpFoldResult(size));
    strides.push_back(b.getIndexAttr(1));
    boxExtents.push_back(size);
  }
  ArrayRef<Value> viewExtents = boxExtents;
  if (dep.rankReduced)
    viewExtents = viewExtents.drop_front(pinned);
  host.extents = shapeValues(b, loc, dep.viewType, viewExtents);
  host.count = productOf(b, loc, host.extents);
  host.blockSizes = shapeValues(b, loc, dep.blockType, dep.alloc.getElementSizes());

  if (pinned + ranged == 0) {
    host.guidTable = source;
    return host;
  }
  auto full = memref::SubViewOp::inferResultType(sourceType, offsets, sizes, strides);
  MemRefType resultType = full;
  if (dep.rankReduced) {
    SmallVector<int64_t> shape(full.getShape().drop_front(pinned));
    resultType =
        memref::SubViewOp::inferRankReducedResultType(shape, sourceType, offsets, sizes, strides);
  }
  host.guidTable =
      memref::SubViewOp::create(b, loc, resultType, source, offsets, sizes, strides);
  return host;
}

void EdtLowering::rewrite(TaskPlan &plan) {
  EdtOp edt = plan.edt;
  Location loc = edt.getLoc();
  MLIRContext *ctx = &getContext();
  Type i32 = IntegerType::get(ctx, 32);
  Type i64 = IntegerType::get(ctx, 64);
  auto ptrType = LLVM::LLVMPointerType::get(ctx);

  // --- Creation site.
  OpBuilder b(edt);
  SmallVector<HostDependency> host;
  for (Dependency &dep : plan.deps)
    host.push_back(lowerAcquire(b, dep));

  llvm::SetVector<Value> packed;      // parameter words, in order
  llvm::SetVector<Value> rematerialize;
  auto need = [&](Value v) {
    if (isRematerializable(v))
      rematerialize.insert(v);
    else
      packed.insert(v);
  };
  for (HostDependency &h : host) {
    llvm::for_each(h.extents, need);
    llvm::for_each(h.blockSizes, need);
  }
  for (Capture &c : plan.captures)
    if (c.kind == CaptureKind::Packed || c.kind == CaptureKind::Rematerialized)
      need(c.value);
  // GUID tables passed by address: the aligned pointer and the extents.
  struct ByAddress {
    Value table, address;
    SmallVector<Value> extents;
  };
  SmallVector<ByAddress> byAddress;
  for (Capture &c : plan.captures) {
    if (c.kind != CaptureKind::GuidsByAddress)
      continue;
    auto alloc = c.value.getDefiningOp<DbAllocOp>();
    auto type = cast<MemRefType>(c.value.getType());
    ByAddress entry{c.value, memref::ExtractAlignedPointerAsIndexOp::create(b, loc, c.value), {}};
    SmallVector<Value> dims;
    if (alloc)
      dims.append(alloc.getSizes().begin(), alloc.getSizes().end());
    else
      for (int64_t d = 0; d < type.getRank(); ++d)
        dims.push_back(memref::DimOp::create(b, loc, c.value, d));
    entry.extents = shapeValues(b, loc, type, dims);
    need(entry.address);
    llvm::for_each(entry.extents, need);
    byAddress.push_back(std::move(entry));
  }

  auto paramsType = MemRefType::get({ShapedType::kDynamic}, i64);
  Value params = EdtParamPackOp::create(b, loc, paramsType, packed.getArrayRef());
  SmallVector<Value> firstSlots;
  Value depCount;
  if (host.empty()) {
    depCount = arith::ConstantIntOp::create(b, loc, i32, 0);
  } else {
    Value nextSlot = arith::ConstantIndexOp::create(b, loc, 0);
    for (HostDependency &h : host) {
      firstSlots.push_back(nextSlot);
      nextSlot = b.createOrFold<arith::AddIOp>(loc, nextSlot, h.count);
    }
    depCount = b.createOrFold<arith::IndexCastOp>(loc, i32, nextSlot);
  }
  Value created =
      EdtCreateOp::create(b, loc, i64, plan.name, params, depCount, edt.getRoute(), Value());
  for (auto [dep, h, first] : llvm::zip_equal(plan.deps, host, firstSlots)) {
    Location depLoc = dep.acquire.getLoc();
    Value slot = b.createOrFold<arith::IndexCastOp>(depLoc, i32, first);
    auto mode = ArtsModeAttr::get(ctx, dep.acquire.getMode());
    RecDepOp::create(b, depLoc, created, slot, ValueRange{h.guidTable}, b.getArrayAttr({mode}),
                     dep.acquire.getStable() ? b.getUnitAttr() : nullptr);
  }

  // --- Outlined function.
  auto fnType = FunctionType::get(ctx, {i32, ptrType, i32, ptrType}, {});
  auto fn = func::FuncOp::create(loc, plan.name, fnType);
  fn.setPrivate();
  artsDialect(fn)->getEdtFunctionAttrHelper().setAttr(fn, UnitAttr::get(ctx));
  symbols->insert(fn, plan.hostFunc->getIterator());
  Block *entry = fn.addEntryBlock();
  Value paramv = entry->getArgument(1), depv = entry->getArgument(3);
  OpBuilder fb = OpBuilder::atBlockBegin(entry);
  IRMapping map;
  if (!packed.empty()) {
    SmallVector<Type> types;
    for (Value v : packed)
      types.push_back(v.getType());
    auto unpack = EdtParamUnpackOp::create(fb, loc, types, paramv);
    for (auto [v, result] : llvm::zip_equal(packed, unpack.getResults()))
      map.map(v, result);
  }
  for (Value v : rematerialize)
    fb.clone(*v.getDefiningOp(), map);
  auto mapped = [&](ArrayRef<Value> values) {
    return llvm::map_to_vector(values, [&](Value v) { return map.lookup(v); });
  };

  // The tables are on the task's stack (see the file comment), one entry per
  // acquired block: all allocated at the entry, before the loops filling them.
  struct Tables {
    SmallVector<Value> extents;
    Value views, guids;
  };
  SmallVector<Tables> tables;
  for (auto [k, dep, h] : llvm::enumerate(plan.deps, host)) {
    Location depLoc = dep.acquire.getLoc();
    Tables &t = tables.emplace_back();
    t.extents = mapped(h.extents);
    t.views = memref::AllocaOp::create(fb, depLoc, dep.viewType,
                                       dynamicSizes(dep.viewType, t.extents));
    bool guidsUsed = llvm::any_of(plan.captures, [&, k = k](const Capture &c) {
      return c.kind == CaptureKind::DepGuids && c.dep == k;
    });
    if (guidsUsed) {
      auto guidType = cast<MemRefType>(dep.acquire.getGuids().getType());
      t.guids = memref::AllocaOp::create(fb, depLoc, guidType, dynamicSizes(guidType, t.extents));
      map.map(dep.acquire.getGuids(), t.guids);
    }
    map.map(edt.getBody().getArgument(k), t.views);
  }
  Value first = plan.deps.empty() ? Value() : arith::ConstantIndexOp::create(fb, loc, 0);
  for (auto [k, dep, h, t] : llvm::enumerate(plan.deps, host, tables)) {
    Location depLoc = dep.acquire.getLoc();
    SmallVector<Value> blockSizes = mapped(h.blockSizes);
    Value base = first;
    forEachIndex(fb, depLoc, t.extents, [&](OpBuilder &lb, Location l, ValueRange ivs) {
      Value slot = lb.createOrFold<arith::AddIOp>(l, base, linearize(lb, l, ivs, t.extents));
      auto gep = DepGepOp::create(lb, l, i64, ptrType, depv, slot);
      Value view = buildPayloadView(lb, l, gep.getPtr(), dep.blockType, blockSizes);
      memref::StoreOp::create(lb, l, view, t.views, ivs);
      if (t.guids)
        memref::StoreOp::create(lb, l, gep.getGuid(), t.guids, ivs);
    });
    if (k + 1 < plan.deps.size())
      first = fb.createOrFold<arith::AddIOp>(depLoc, first, productOf(fb, depLoc, t.extents));
  }
  for (ByAddress &entry : byAddress) {
    Value address = map.lookup(entry.address);
    Value word = arith::IndexCastOp::create(fb, loc, i64, address);
    Value raw = LLVM::IntToPtrOp::create(fb, loc, ptrType, word);
    auto type = cast<MemRefType>(entry.table.getType());
    map.map(entry.table, buildPayloadView(fb, loc, raw, type, mapped(entry.extents)));
  }

  for (Operation &op : edt.getBody().front().without_terminator())
    if (!isa<DbReleaseOp>(op))
      fb.clone(op, map);
  fn.walk([](DbReleaseOp release) { release.erase(); });
  func::ReturnOp::create(fb, loc);

  for (auto [k, dep] : llvm::enumerate(plan.deps))
    CARTS_DEBUG(kChannel, dep.acquire)
        << "dep #" << k << " mode=" << stringifyArtsMode(dep.acquire.getMode())
        << " table=" << dep.viewType << " block sizes from db_alloc at "
        << locationString(dep.alloc.getLoc()) << "\n";
  CARTS_DEBUG(kChannel, edt) << "task -> @" << plan.name << " params=("
                             << typeList(packed.getArrayRef()) << ") deps=" << plan.deps.size()
                             << "\n";

  // --- The task is gone; so are the acquires only it used.
  SmallVector<DbAcquireOp> acquires;
  for (Dependency &dep : plan.deps)
    if (!llvm::is_contained(acquires, dep.acquire))
      acquires.push_back(dep.acquire);
  edt.erase();
  for (DbAcquireOp acquire : acquires) {
    for (Operation *user : llvm::make_early_inc_range(acquire.getPtrs().getUsers()))
      if (isa<DbReleaseOp>(user))
        user->erase();
    if (acquire->use_empty())
      acquire.erase();
  }
}

LogicalResult EdtLowering::eraseLoweredAcquires() {
  SmallVector<DbAcquireOp> acquires;
  getOperation().walk([&](DbAcquireOp acquire) { acquires.push_back(acquire); });
  bool failed = false;
  // Innermost first: an acquire may select from another one.
  for (DbAcquireOp acquire : llvm::reverse(acquires)) {
    for (Operation *user : llvm::make_early_inc_range(acquire.getPtrs().getUsers()))
      if (isa<DbReleaseOp>(user))
        user->erase();
    if (!acquire->use_empty()) {
      acquire.emitError("acquired datablocks used outside a task dependency");
      failed = true;
      continue;
    }
    acquire.erase();
  }
  return failure(failed);
}

void EdtLowering::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTable symbolTable(module);
  symbols = &symbolTable;
  // Declared dependences did their work in create-dbs (the acquires they shaped).
  module.walk([](DependOp depend) { depend.erase(); });
  splitTaskLoopsAtBlockBoundaries(module);

  // Numbers in source order (an outer task before the tasks nested in it);
  // rewriting in post-order, so every task is outlined after its nested ones.
  struct Task {
    EdtOp edt;
    Operation *hostFunc;
    std::string name;
  };
  SmallVector<Task> tasks;
  DenseMap<Operation *, size_t> number;
  module.walk<WalkOrder::PreOrder>([&](EdtOp edt) {
    Operation *host = edt;
    while (host->getParentOp() != module)
      host = host->getParentOp();
    number[edt] = tasks.size();
    tasks.push_back({edt, host, nextFunctionName()});
  });
  SmallVector<size_t> postOrder;
  module.walk([&](EdtOp edt) { postOrder.push_back(number[edt]); });

  for (size_t i : postOrder) {
    TaskPlan plan;
    if (failed(analyze(tasks[i].edt, plan)))
      return signalPassFailure();
    plan.hostFunc = tasks[i].hostFunc;
    plan.name = tasks[i].name;
    rewrite(plan);
  }
  // Outlined functions sit before the function they come from, in number order.
  for (Task &task : tasks)
    if (auto fn = symbolTable.lookup<func::FuncOp>(task.name))
      fn->moveBefore(task.hostFunc);

  if (failed(eraseLoweredAcquires()))
    signalPassFailure();
}
