//===- ArtsToLlvm.cpp - lowered ARTS ops become runtime calls -------------===//
//
// Described in Passes.td (`ArtsToLlvm`), with the op-to-call table; the calls
// are declared from the table of support/RuntimeAbi, which test_runtime_abi.py
// checks against runtime/include/arts.h. Everything that can fail is checked
// (llvm/Checks.cpp) before the first rewrite, so a failing pass leaves the
// module as it was.
//
//===----------------------------------------------------------------------===//

#include "passes/llvm/Lowering.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "support/RuntimeAbi.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <array>

namespace mlir::arts {
#define GEN_PASS_DEF_ARTSTOLLVM
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;
using namespace mlir::arts::llvmlowering;

static constexpr llvm::StringLiteral kChannel = "arts-to-llvm";
/// Parameter buffers up to this many words (4 KiB) live on the creator's stack.
static constexpr int64_t kMaxStackParamWords = 512;

//===----------------------------------------------------------------------===//
// Types the lowering knows
//===----------------------------------------------------------------------===//

/// artsEdtDep_t = { artsGuid_t guid; uint32_t mode; void *ptr; } (24 bytes, ptr at 16).
static LLVM::LLVMStructType edtDepType(MLIRContext *ctx) {
  return LLVM::LLVMStructType::getLiteral(
      ctx, {IntegerType::get(ctx, 64), IntegerType::get(ctx, 32), ptrType(ctx)});
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

static int32_t dependenceMode(ArtsMode mode, bool stable) {
  switch (mode) {
  case ArtsMode::in:
    return stable ? kDbReadStable : kDbRead;
  case ArtsMode::out:
  case ArtsMode::inout:
    // A stable write is the only acquire of its blocks in its epoch (arts-stable-reads): it
    // takes the payload with no generation to wait for.
    return stable ? kDbWriteStable : kDbWrite;
  case ArtsMode::concurrent:
    return stable ? kDbConcurrentStable : kDbConcurrent;
  }
  llvm_unreachable("unknown acquire mode");
}

static int32_t guidType(DbMode mode) { return mode == DbMode::read ? kDbRead : kDbWrite; }

static Rt queryFunction(RuntimeQueryKind kind) {
  switch (kind) {
  case RuntimeQueryKind::total_workers:
    return Rt::GetTotalWorkers;
  case RuntimeQueryKind::total_nodes:
    return Rt::GetTotalNodes;
  case RuntimeQueryKind::current_worker:
    return Rt::GetCurrentWorker;
  case RuntimeQueryKind::current_node:
    return Rt::GetCurrentNode;
  }
  llvm_unreachable("unknown runtime query");
}

//===----------------------------------------------------------------------===//
// The rewriter
//===----------------------------------------------------------------------===//

namespace {
class Lowering {
public:
  Lowering(ModuleOp module, SymbolTable &symbols)
      : module(module), symbols(symbols), ctx(module.getContext()), b(ctx) {}

  void lower(Operation *op);
  /// Whether `op` went into the artsEdtCreateWithDbs of its task (and is gone).
  bool fused(Operation *op) const { return fusedRecDeps.contains(op); }
  /// Runs before the packs are rewritten: decides where each buffer is freed.
  void lowerParamPack(EdtParamPackOp pack);
  void generateEntryPoints(const EntryPoints &entry);
  /// On several nodes, a launch loop's messages leave as one per node: the loop goes
  /// between artsLaunchBegin and artsLaunchEnd.
  void bracketLaunch(scf::ForOp loop);

private:
  Value call(Location loc, Rt id, ValueRange args);
  Value constI32(Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
  }
  Value constI64(Location loc, int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value constIndex(Location loc, int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value toI32(Location loc, Value index) {
    return b.createOrFold<arith::IndexCastOp>(loc, b.getI32Type(), index);
  }
  Value dim(Location loc, Value memref, unsigned d);
  /// The function `op` is in, if that is the nearest isolated op around it.
  static FunctionOpInterface enclosingFunction(Operation *op) {
    return dyn_cast_or_null<FunctionOpInterface>(
        op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>());
  }
  /// A buffer of `count` elements on the stack of `func`, made at its entry.
  Value entryAlloca(FunctionOpInterface func, Location loc, MemRefType type, int64_t count);
  Value alignedPointer(Location loc, Value memref);
  Value functionPointer(Location loc, StringRef name, FunctionType type);
  Value toWord(Location loc, Value v);
  Value fromWord(Location loc, Value word, Type type);

  void lowerParamUnpack(EdtParamUnpackOp op);
  void lowerEdtCreate(EdtCreateOp op);
  SmallVector<RecDepOp> recDepsToFuse(EdtCreateOp op);
  void lowerEdtCreateWithDbs(EdtCreateOp op, ArrayRef<RecDepOp> recDeps);
  void lowerRecDep(RecDepOp op);
  void lowerDepGep(DepGepOp op);
  template <typename CopyOp> void lowerDbCopy(CopyOp op, Rt id);
  void lowerAtomicAdd(AtomicAddOp op);
  void lowerCritical(CriticalOp op);

  ModuleOp module;
  SymbolTable &symbols;
  MLIRContext *ctx;
  IRRewriter b;
  Operation *lastDeclaration = nullptr;
  llvm::DenseSet<Operation *> fusedRecDeps;
};
} // namespace

/// Whether a loop around launch loops may hold their messages to the end: nothing in it
/// waits (an epoch's wait, a call that may hold one, a host put or get).
static bool holdsNoWait(scf::ForOp loop) {
  return !loop->walk([](Operation *op) {
                return isa<WaitOnEpochOp, PutInDbEpochOp, GetFromDbEpochOp, DbSyncOp,
                           CallOpInterface>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
}

/// The loops to bracket as launches: each launch loop, or the outermost loop around it
/// (a time loop in one epoch) that waits for nothing, so that its sweeps' creations reach
/// each node as one message instead of one a sweep. A thread that waits sends what it
/// holds first, so a wider launch delays messages and never blocks.
static SmallVector<scf::ForOp> launchScopes(ModuleOp module) {
  llvm::SetVector<Operation *> scopes;
  module.walk([&](scf::ForOp loop) {
    if (!artsDialect(loop)->getLaunchLoopAttrHelper().isAttrPresent(loop))
      return;
    scf::ForOp scope = loop;
    for (auto outer = loop->getParentOfType<scf::ForOp>(); outer && holdsNoWait(outer);
         outer = outer->getParentOfType<scf::ForOp>())
      if (outer->getParentOfType<FunctionOpInterface>() == loop->getParentOfType<FunctionOpInterface>())
        scope = outer;
    scopes.insert(scope);
  });
  SmallVector<scf::ForOp> outermost;
  for (Operation *scope : scopes)
    if (llvm::none_of(scopes, [&](Operation *other) { return other != scope && other->isProperAncestor(scope); }))
      outermost.push_back(cast<scf::ForOp>(scope));
  return outermost;
}

void Lowering::bracketLaunch(scf::ForOp loop) {
  b.setInsertionPoint(loop);
  call(loop.getLoc(), Rt::LaunchBegin, {});
  b.setInsertionPointAfter(loop);
  call(loop.getLoc(), Rt::LaunchEnd, {});
  bool around = !artsDialect(loop)->getLaunchLoopAttrHelper().isAttrPresent(loop);
  CARTS_DEBUG(kChannel, loop) << (around ? "loop around launch loops, waiting for nothing,"
                                         : "launch loop")
                              << " on several nodes -> between artsLaunchBegin and "
                                 "artsLaunchEnd (one message per node)\n";
}

Value Lowering::call(Location loc, Rt id, ValueRange args) {
  const RuntimeFunction &f = runtimeFunction(id);
  auto decl = symbols.lookup<func::FuncOp>(f.name);
  if (!decl) {
    // Declarations go to the top of the module, in the order of first use.
    OpBuilder::InsertionGuard guard(b);
    if (lastDeclaration)
      b.setInsertionPointAfter(lastDeclaration);
    else
      b.setInsertionPointToStart(module.getBody());
    decl = func::FuncOp::create(b, module.getLoc(), f.name, runtimeFunctionType(ctx, f));
    decl.setPrivate();
    symbols.insert(decl);
    lastDeclaration = decl;
  }
  auto op = func::CallOp::create(b, loc, decl, args);
  return op.getNumResults() ? op.getResult(0) : Value();
}

Value Lowering::dim(Location loc, Value memref, unsigned d) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(d))
    return constIndex(loc, type.getDimSize(d));
  return b.createOrFold<memref::DimOp>(loc, memref, d);
}

Value Lowering::entryAlloca(FunctionOpInterface func, Location loc, MemRefType type,
                           int64_t count) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.getFunctionBody().front());
  SmallVector<Value> dynSizes;
  if (type.isDynamicDim(0))
    dynSizes.push_back(constIndex(loc, count));
  return memref::AllocaOp::create(b, loc, type, dynSizes);
}

/// The address of element 0 of a memref, as `!llvm.ptr`.
Value Lowering::alignedPointer(Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  Value index = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  Value base = LLVM::IntToPtrOp::create(b, loc, ptrType(ctx), address, /*dereferenceable=*/{});
  if (type.getLayout().isIdentity())
    return base;
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), meta.getOffset());
  return LLVM::GEPOp::create(b, loc, ptrType(ctx), type.getElementType(), base,
                             ArrayRef<LLVM::GEPArg>{offset});
}

/// `func.constant @name` as a `!llvm.ptr`; func-to-llvm turns the constant into
/// llvm.mlir.addressof and reconcile-unrealized-casts drops the cast.
Value Lowering::functionPointer(Location loc, StringRef name, FunctionType type) {
  Value fn = func::ConstantOp::create(b, loc, type, FlatSymbolRefAttr::get(ctx, name));
  return UnrealizedConversionCastOp::create(b, loc, ptrType(ctx), fn).getResult(0);
}

/// One paramv word: integers and index sign-extended, floats bit-cast (and
/// zero-extended when narrower), pointers converted to integers.
Value Lowering::toWord(Location loc, Value v) {
  Type i64 = b.getI64Type();
  Type t = v.getType();
  if (isa<IndexType>(t))
    return arith::IndexCastOp::create(b, loc, i64, v);
  if (isa<LLVM::LLVMPointerType>(t))
    return LLVM::PtrToIntOp::create(b, loc, i64, v);
  if (auto it = dyn_cast<IntegerType>(t))
    return it.getWidth() == 64 ? v : arith::ExtSIOp::create(b, loc, i64, v).getResult();
  auto ft = cast<FloatType>(t);
  Value bits = arith::BitcastOp::create(b, loc, b.getIntegerType(ft.getWidth()), v);
  return ft.getWidth() == 64 ? bits : arith::ExtUIOp::create(b, loc, i64, bits).getResult();
}

Value Lowering::fromWord(Location loc, Value word, Type t) {
  if (isa<IndexType>(t))
    return arith::IndexCastOp::create(b, loc, t, word);
  if (isa<LLVM::LLVMPointerType>(t))
    return LLVM::IntToPtrOp::create(b, loc, t, word, /*dereferenceable=*/{});
  if (auto it = dyn_cast<IntegerType>(t))
    return it.getWidth() == 64 ? word : arith::TruncIOp::create(b, loc, t, word).getResult();
  auto ft = cast<FloatType>(t);
  Value bits = word;
  if (ft.getWidth() != 64)
    bits = arith::TruncIOp::create(b, loc, b.getIntegerType(ft.getWidth()), word);
  return arith::BitcastOp::create(b, loc, t, bits);
}

void Lowering::lowerParamPack(EdtParamPackOp pack) {
  Location loc = pack.getLoc();
  b.setInsertionPoint(pack);
  auto type = cast<MemRefType>(pack.getType());
  int64_t count = pack.getValues().size();

  // The runtime copies paramv at creation, so the buffer lives until the last
  // task created from it (or the op holding that creation) has run.
  Operation *lastUse = nullptr;
  bool escapes = false;
  for (Operation *user : pack->getUsers()) {
    Operation *anchor = pack->getBlock()->findAncestorOpInBlock(*user);
    if (!isa<EdtCreateOp>(user) || !anchor) {
      escapes = true;
      break;
    }
    if (!lastUse || lastUse->isBeforeInBlock(anchor))
      lastUse = anchor;
  }

  // A buffer only creations read is filled anew before each of them, so one
  // on the function's stack serves every iteration of the loops around it: a
  // creator making thousands of tasks does not call malloc and free for each.
  FunctionOpInterface func = enclosingFunction(pack);
  Value buffer;
  if (!escapes && func && count <= kMaxStackParamWords) {
    buffer = entryAlloca(func, loc, type, count);
    CARTS_DEBUG(kChannel, pack) << "edt_param_pack: words=" << count
                                << ", on the stack of the function\n";
  } else {
    SmallVector<Value> dynSizes;
    if (type.isDynamicDim(0))
      dynSizes.push_back(constIndex(loc, count));
    buffer = memref::AllocOp::create(b, loc, type, dynSizes);
    if (escapes) {
      CARTS_DEBUG(kChannel, pack) << "edt_param_pack: words=" << count
                                  << ", used beyond edt_create: not freed\n";
    } else {
      OpBuilder::InsertionGuard guard(b);
      if (lastUse)
        b.setInsertionPointAfter(lastUse);
      memref::DeallocOp::create(b, loc, buffer);
      CARTS_DEBUG(kChannel, pack) << "edt_param_pack: words=" << count << ", freed after "
                                  << (lastUse ? lastUse->getName().getStringRef() : "the stores")
                                  << "\n";
    }
  }
  for (auto [i, v] : llvm::enumerate(pack.getValues()))
    memref::StoreOp::create(b, loc, toWord(loc, v), buffer, ValueRange{constIndex(loc, i)});
  b.replaceOp(pack, buffer);
}

void Lowering::lowerParamUnpack(EdtParamUnpackOp op) {
  Location loc = op.getLoc();
  Value params = op.getParams();
  SmallVector<Value> values;
  for (auto [i, result] : llvm::enumerate(op.getValues())) {
    Value word;
    if (isa<LLVM::LLVMPointerType>(params.getType())) {
      Value addr = LLVM::GEPOp::create(b, loc, ptrType(ctx), b.getI64Type(), params,
                                       ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      word = LLVM::LoadOp::create(b, loc, b.getI64Type(), addr);
    } else {
      word = memref::LoadOp::create(b, loc, params, ValueRange{constIndex(loc, i)});
    }
    values.push_back(fromWord(loc, word, result.getType()));
  }
  b.replaceOp(op, values);
}

void Lowering::lowerEdtCreate(EdtCreateOp op) {
  SmallVector<RecDepOp> recDeps = recDepsToFuse(op);
  if (!recDeps.empty())
    return lowerEdtCreateWithDbs(op, recDeps);
  Location loc = op.getLoc();
  Value fn = functionPointer(loc, op.getOutlinedFunc(), edtFunctionType(ctx));
  Value paramc = toI32(loc, dim(loc, op.getParams(), 0));
  Value paramv = alignedPointer(loc, op.getParams());
  Value guid;
  if (Value epoch = op.getEpoch())
    guid = call(loc, Rt::EdtCreateWithEpoch,
                {fn, op.getRoute(), paramc, paramv, op.getDepCount(), epoch});
  else
    guid = call(loc, Rt::EdtCreate, {fn, op.getRoute(), paramc, paramv, op.getDepCount()});
  CARTS_DEBUG(kChannel, op) << "edt_create @" << op.getOutlinedFunc() << " -> "
                            << (op.getEpoch() ? "artsEdtCreateWithEpoch" : "artsEdtCreate")
                            << "\n";
  b.replaceOp(op, guid);
}

/// The rec_dep ops that can go into one artsEdtCreateWithDbs with `op`: every
/// use of the task is one of them, they follow the creation in its block with
/// nothing but memory-effect-free ops in between (so no other task or datablock
/// can tell the difference), their tables are of rank 0, 1 or 2 with consecutive
/// innermost entries, and the parameters are on the stack (a heap buffer is
/// freed right after the creation). Empty when they cannot.
SmallVector<RecDepOp> Lowering::recDepsToFuse(EdtCreateOp op) {
  SmallVector<RecDepOp> recDeps;
  if (!op.getParams().getDefiningOp<memref::AllocaOp>() || !enclosingFunction(op))
    return {};
  for (Operation *user : op.getResult().getUsers()) {
    auto recDep = dyn_cast<RecDepOp>(user);
    if (!recDep || recDep.getEdt() != op.getResult() || recDep->getBlock() != op->getBlock())
      return {};
    for (Value table : recDep.getGuids()) {
      auto type = cast<MemRefType>(table.getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      if (type.getRank() > 2 || failed(type.getStridesAndOffset(strides, offset)) ||
          (!strides.empty() && strides.back() != 1))
        return {};
    }
    recDeps.push_back(recDep);
  }
  if (recDeps.empty())
    return {};
  llvm::sort(recDeps, [](RecDepOp x, RecDepOp y) { return x->isBeforeInBlock(y); });
  if (recDeps.front()->isBeforeInBlock(op))
    return {};
  llvm::SmallPtrSet<Operation *, 8> own;
  for (RecDepOp recDep : recDeps)
    own.insert(recDep);
  for (Operation *it = op->getNextNode(); it != recDeps.back(); it = it->getNextNode())
    if (!own.contains(it) && !isMemoryEffectFree(it))
      return {};
  return recDeps;
}

/// One artsDbRun (five words: the first GUID's address, rows, columns, the row
/// stride, first slot | mode << 32) per table, in a buffer on the stack (a 0-D
/// or 1-D table is one row); the
/// call takes the place of the last rec_dep, where every operand is defined.
void Lowering::lowerEdtCreateWithDbs(EdtCreateOp op, ArrayRef<RecDepOp> recDeps) {
  Location loc = op.getLoc();
  Type i64 = b.getI64Type();
  int64_t runs = 0;
  for (RecDepOp recDep : recDeps)
    runs += recDep.getGuids().size();

  Value buffer =
      entryAlloca(enclosingFunction(op), loc, MemRefType::get({5 * runs}, i64), 5 * runs);
  b.setInsertionPoint(recDeps.back());
  int64_t word = 0;
  auto store = [&](Value v) {
    memref::StoreOp::create(b, loc, v, buffer, ValueRange{constIndex(loc, word++)});
  };
  for (RecDepOp recDep : recDeps) {
    Location depLoc = recDep.getLoc();
    Value slot = arith::ExtUIOp::create(b, depLoc, i64, recDep.getFirstSlot());
    for (auto [table, modeAttr] : llvm::zip_equal(recDep.getGuids(), recDep.getAcquireModes())) {
      auto type = cast<MemRefType>(table.getType());
      int32_t mode = dependenceMode(cast<ArtsModeAttr>(modeAttr).getValue(), recDep.getStable());
      Value address = LLVM::PtrToIntOp::create(b, depLoc, i64, alignedPointer(depLoc, table));
      Value rows = constI64(depLoc, 1), cols = rows, stride = constI64(depLoc, 0);
      if (type.getRank() > 0)
        cols = arith::IndexCastOp::create(b, depLoc, i64, dim(depLoc, table, type.getRank() - 1));
      if (type.getRank() == 2) {
        rows = arith::IndexCastOp::create(b, depLoc, i64, dim(depLoc, table, 0));
        auto meta = memref::ExtractStridedMetadataOp::create(b, depLoc, table);
        stride = arith::IndexCastOp::create(b, depLoc, i64, meta.getStrides()[0]);
      }
      store(address);
      store(rows);
      store(cols);
      store(stride);
      Value modeHigh = constI64(depLoc, static_cast<int64_t>(mode) << 32);
      store(arith::OrIOp::create(b, depLoc, slot, modeHigh));
      // The next table of the same rec_dep starts after this one's entries.
      Value entries = arith::MulIOp::create(b, depLoc, rows, cols);
      slot = arith::AddIOp::create(b, depLoc, slot, entries);
    }
  }
  Value fn = functionPointer(loc, op.getOutlinedFunc(), edtFunctionType(ctx));
  Value paramc = toI32(loc, dim(loc, op.getParams(), 0));
  Value paramv = alignedPointer(loc, op.getParams());
  Value epoch = op.getEpoch() ? op.getEpoch() : constI64(loc, 0);
  call(loc, Rt::EdtCreateWithDbs,
       {fn, op.getRoute(), paramc, paramv, op.getDepCount(), epoch, constI32(loc, runs),
        alignedPointer(loc, buffer)});
  CARTS_DEBUG(kChannel, op) << "edt_create @" << op.getOutlinedFunc()
                            << " -> artsEdtCreateWithDbs with " << runs << " run"
                            << (runs == 1 ? "" : "s") << " of datablocks from " << recDeps.size()
                            << " rec_dep" << (recDeps.size() == 1 ? "" : "s") << "\n";
  for (RecDepOp recDep : recDeps) {
    fusedRecDeps.insert(recDep);
    b.eraseOp(recDep);
  }
  b.eraseOp(op);
}

/// Every entry of every table, in row-major order, is the next slot.
void Lowering::lowerRecDep(RecDepOp op) {
  Location loc = op.getLoc();
  Value base = op.getFirstSlot();
  Value zero = constIndex(loc, 0), one = constIndex(loc, 1);
  unsigned numTables = op.getGuids().size();
  for (auto [t, table, modeAttr] : llvm::enumerate(op.getGuids(), op.getAcquireModes())) {
    auto type = cast<MemRefType>(table.getType());
    int32_t mode = dependenceMode(cast<ArtsModeAttr>(modeAttr).getValue(), op.getStable());
    Value modeValue = constI32(loc, mode);
    SmallVector<Value> dims;
    for (unsigned d = 0; d < type.getRank(); ++d)
      dims.push_back(dim(loc, table, d));

    // One loop per dimension that is not statically 1; the slot is the base
    // plus the row-major linear index of the entry.
    {
      OpBuilder::InsertionGuard guard(b);
      SmallVector<Value> indices;
      Value linear = zero;
      for (unsigned d = 0; d < dims.size(); ++d) {
        Value iv = zero;
        if (type.getDimSize(d) != 1) {
          auto loop = scf::ForOp::create(b, loc, zero, dims[d], one);
          b.setInsertionPointToStart(loop.getBody());
          iv = loop.getInductionVar();
        }
        indices.push_back(iv);
        linear = b.createOrFold<arith::AddIOp>(
            loc, b.createOrFold<arith::MulIOp>(loc, linear, dims[d]), iv);
      }
      Value guid = memref::LoadOp::create(b, loc, table, indices);
      Value slot = b.createOrFold<arith::AddIOp>(loc, base, toI32(loc, linear));
      call(loc, Rt::RecordDep, {guid, op.getEdt(), slot, modeValue});
    }
    CARTS_DEBUG(kChannel, op) << "rec_dep table #" << t << " of " << typeString(type)
                              << " -> artsRecordDep mode " << mode << "\n";
    if (t + 1 == numTables)
      break;
    Value entries = one;
    for (Value d : dims)
      entries = b.createOrFold<arith::MulIOp>(loc, entries, d);
    base = b.createOrFold<arith::AddIOp>(loc, base, toI32(loc, entries));
  }
  b.eraseOp(op);
}

void Lowering::lowerDepGep(DepGepOp op) {
  Location loc = op.getLoc();
  Value slot = arith::IndexCastOp::create(b, loc, b.getI64Type(), op.getSlot());
  auto depType = edtDepType(ctx);
  Value guid, ptr;
  if (!op.getGuid().use_empty()) {
    Value addr = LLVM::GEPOp::create(b, loc, ptrType(ctx), depType, op.getDepv(),
                                     ArrayRef<LLVM::GEPArg>{slot, 0});
    guid = LLVM::LoadOp::create(b, loc, b.getI64Type(), addr);
  }
  if (!op.getPtr().use_empty()) {
    Value addr = LLVM::GEPOp::create(b, loc, ptrType(ctx), depType, op.getDepv(),
                                     ArrayRef<LLVM::GEPArg>{slot, 2});
    ptr = LLVM::LoadOp::create(b, loc, ptrType(ctx), addr);
  }
  if (guid)
    op.getGuid().replaceAllUsesWith(guid);
  if (ptr)
    op.getPtr().replaceAllUsesWith(ptr);
  b.eraseOp(op);
}

/// put_in_db_epoch / get_from_db_epoch: (buffer, epoch, db, offset, bytes), the
/// buffer a raw pointer or a memref's aligned pointer.
template <typename CopyOp>
void Lowering::lowerDbCopy(CopyOp op, Rt id) {
  Location loc = op.getLoc();
  Value buffer = op->getOperand(0);
  if (isa<MemRefType>(buffer.getType()))
    buffer = alignedPointer(loc, buffer);
  call(loc, id, {buffer, op.getEpoch(), op.getGuid(), op.getOffset(), op.getBytes()});
  b.eraseOp(op);
}

void Lowering::lowerAtomicAdd(AtomicAddOp op) {
  auto kind = isa<FloatType>(op.getValue().getType()) ? arith::AtomicRMWKind::addf
                                                      : arith::AtomicRMWKind::addi;
  memref::AtomicRMWOp::create(b, op.getLoc(), kind, op.getValue(), op.getMemref(),
                              op.getIndices());
  b.eraseOp(op);
}

/// The name's 64-bit FNV-1a hash identifies its lock (the unnamed section is "").
void Lowering::lowerCritical(CriticalOp op) {
  uint64_t id = 0xcbf29ce484222325ull;
  for (char c : op.getName()) {
    id ^= static_cast<unsigned char>(c);
    id *= 0x100000001b3ull;
  }
  Location loc = op.getLoc();
  call(loc, Rt::CriticalEnter, {constI64(loc, static_cast<int64_t>(id))});
  Block &body = op.getBody().front();
  b.eraseOp(body.getTerminator());
  b.inlineBlockBefore(&body, op);
  call(loc, Rt::CriticalExit, {constI64(loc, static_cast<int64_t>(id))});
  b.eraseOp(op);
}

void Lowering::lower(Operation *op) {
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](EdtParamUnpackOp o) { lowerParamUnpack(o); })
      .Case([&](EdtCreateOp o) { lowerEdtCreate(o); })
      .Case([&](RecDepOp o) { lowerRecDep(o); })
      .Case([&](DepGepOp o) { lowerDepGep(o); })
      .Case([&](ReserveGuidOp o) {
        int32_t type = guidType(o.getDbMode());
        b.replaceOp(o, call(loc, Rt::ReserveGuidRoute, {constI32(loc, type), o.getRoute()}));
      })
      .Case([&](DbCreateOp o) {
        b.replaceOp(o, call(loc, o.getOnOwner() ? Rt::DbCreateOnOwner : Rt::DbCreateWithGuid,
                            {o.getGuid(), o.getBytes()}));
      })
      .Case([&](DbDestroyOp o) {
        call(loc, Rt::DbDestroy, {o.getGuid()});
        b.eraseOp(o);
      })
      .Case([&](DbShareOp o) {
        call(loc, Rt::DbShare, {o.getGuid()});
        b.eraseOp(o);
      })
      .Case([&](PutInDbEpochOp o) { lowerDbCopy(o, Rt::PutInDbEpoch); })
      .Case([&](GetFromDbEpochOp o) { lowerDbCopy(o, Rt::GetFromDbEpoch); })
      .Case([&](CreateEpochOp o) {
        b.replaceOp(o, call(loc, Rt::InitializeAndStartEpoch, {constI64(loc, 0), constI32(loc, 0)}));
      })
      .Case([&](WaitOnEpochOp o) {
        call(loc, Rt::WaitOnHandle, {o.getEpoch()});
        b.eraseOp(o);
      })
      .Case([&](RuntimeQueryOp o) {
        // Workers are counted over the whole machine, as an OpenMP team spanning every
        // node sees them: total = per node x nodes, and a worker's number is
        // node x per node + its number on its node (the same values on one node).
        Value value = call(loc, queryFunction(o.getQuery()), {});
        if (o.getQuery() == RuntimeQueryKind::total_workers) {
          Value nodes = call(loc, Rt::GetTotalNodes, {});
          value = arith::MulIOp::create(b, loc, value, nodes);
        } else if (o.getQuery() == RuntimeQueryKind::current_worker) {
          Value node = call(loc, Rt::GetCurrentNode, {});
          Value perNode = call(loc, Rt::GetTotalWorkers, {});
          Value first = arith::MulIOp::create(b, loc, node, perNode);
          value = arith::AddIOp::create(b, loc, first, value);
        }
        b.replaceOp(o, value);
      })
      .Case([&](AtomicAddOp o) { lowerAtomicAdd(o); })
      .Case([&](CriticalOp o) { lowerCritical(o); });
}

/// main -> mainBody; artsMain(argc, argv) and main(argc, argv) around it.
void Lowering::generateEntryPoints(const EntryPoints &entry) {
  func::FuncOp mainBody = entry.main;
  Location loc = mainBody.getLoc();
  Type i32 = b.getI32Type();
  Type ptr = ptrType(ctx);
  bool forwardsArgs = mainBody.getNumArguments() == 2;
  (void)symbols.rename(mainBody, kMainBodyName);

  b.setInsertionPointToEnd(module.getBody());
  auto exitCode = LLVM::GlobalOp::create(b, loc, i32, /*isConstant=*/false,
                                         LLVM::Linkage::Internal, kExitCodeName,
                                         b.getI32IntegerAttr(0));
  symbols.insert(exitCode);

  // void artsMain(int argc, char **argv): the first task, on node 0.
  FunctionType artsMainType = FunctionType::get(ctx, {i32, ptr}, {});
  b.setInsertionPointToEnd(module.getBody());
  auto artsMain = func::FuncOp::create(b, loc, kArtsMainName, artsMainType);
  symbols.insert(artsMain);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = artsMain.addEntryBlock();
    b.setInsertionPointToStart(body);
    ValueRange args = forwardsArgs ? ValueRange(body->getArguments()) : ValueRange{};
    Value code = func::CallOp::create(b, loc, mainBody, args).getResult(0);
    Value slot = LLVM::AddressOfOp::create(b, loc, exitCode);
    LLVM::StoreOp::create(b, loc, code, slot);
    call(loc, Rt::Shutdown, {});
    func::ReturnOp::create(b, loc);
  }

  // int main(int argc, char **argv): the exit code of the program, or artsRT's
  // when the runtime itself failed.
  b.setInsertionPointToEnd(module.getBody());
  auto main = func::FuncOp::create(b, loc, kMainName, FunctionType::get(ctx, {i32, ptr}, {i32}));
  symbols.insert(main);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = main.addEntryBlock();
    b.setInsertionPointToStart(body);
    auto hook = [&](func::FuncOp fn) -> Value {
      if (!fn)
        return LLVM::ZeroOp::create(b, loc, ptr);
      return functionPointer(loc, fn.getName(), fn.getFunctionType());
    };
    Value mainPtr = functionPointer(loc, kArtsMainName, artsMainType);
    call(loc, Rt::SetEntryPoints, {mainPtr, hook(entry.initPerNode), hook(entry.initPerWorker)});
    Value rc = call(loc, Rt::RT, body->getArguments());
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rc, constI32(loc, 0));
    Value slot = LLVM::AddressOfOp::create(b, loc, exitCode);
    Value code = LLVM::LoadOp::create(b, loc, i32, slot);
    Value result = arith::SelectOp::create(b, loc, ok, code, rc);
    func::ReturnOp::create(b, loc, result);
  }
  CARTS_DEBUG(kChannel, mainBody)
      << "main -> mainBody" << (forwardsArgs ? " (argc, argv)" : " ()")
      << "; generated artsMain and main; initPerNode=" << (entry.initPerNode ? "yes" : "null")
      << " initPerWorker=" << (entry.initPerWorker ? "yes" : "null") << "\n";
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
/// Every `memref.alloca_scope` left (a private copy made per iteration of a chunk loop
/// that holds its own allocas, so canonicalize cannot inline it) becomes its body between
/// a stack save and restore, as the memref lowering would do later. Done here, while the
/// body is still one block: the scf-to-cf conversion that comes first would split it into
/// several, which the op does not allow.
void inlineAllocaScopes(ModuleOp module) {
  SmallVector<memref::AllocaScopeOp> scopes;
  module.walk([&](memref::AllocaScopeOp scope) { scopes.push_back(scope); }); // inner first
  for (memref::AllocaScopeOp scope : scopes) {
    Location loc = scope.getLoc();
    Block &body = scope.getBodyRegion().front();
    auto ret = cast<memref::AllocaScopeReturnOp>(body.getTerminator());
    bool allocates = !body.getOps<memref::AllocaOp>().empty();
    OpBuilder b(scope);
    Value saved;
    if (allocates)
      saved = LLVM::StackSaveOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()));
    SmallVector<Value> results(ret.getResults());
    scope->getBlock()->getOperations().splice(Block::iterator(scope), body.getOperations(),
                                              body.begin(), Block::iterator(ret));
    if (allocates)
      LLVM::StackRestoreOp::create(b, loc, saved);
    scope->replaceAllUsesWith(results);
    scope->erase();
  }
}

/// The program's `exit` becomes the runtime's `cartsExit`, which is the C library's on
/// one node and, on several, ends the run without ending the node's process.
void redirectExit(ModuleOp module, SymbolTable &symbols) {
  auto exitFn = symbols.lookup<func::FuncOp>("exit");
  if (!exitFn || !exitFn.isExternal() || symbols.lookup("cartsExit"))
    return;
  if (failed(symbols.rename(exitFn, "cartsExit")))
    return;
  CARTS_DEBUG(kChannel, exitFn) << "exit -> cartsExit\n";
}

struct ArtsToLlvm : arts::impl::ArtsToLlvmBase<ArtsToLlvm> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    Dialect *arts = getContext().getLoadedDialect<ArtsDialect>();

    bool failed = false;
    SmallVector<EdtParamPackOp> packs;
    SmallVector<Operation *> ops;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op->getDialect() != arts || (isa<YieldOp>(op) && isa<CriticalOp>(op->getParentOp())))
        return WalkResult::advance();
      if (!isLoweredArtsOp(op)) {
        op->emitError("'") << op->getName()
                           << "' is left for arts-to-llvm; pre-lowering must lower it first";
        failed = true;
        return WalkResult::skip();
      }
      if (mlir::failed(checkLowerable(op, symbols)))
        failed = true;
      if (auto pack = dyn_cast<EdtParamPackOp>(op))
        packs.push_back(pack);
      else
        ops.push_back(op);
      return WalkResult::advance();
    });
    FailureOr<EntryPoints> entry = checkEntryPoints(module, symbols);
    if (failed || mlir::failed(entry) || mlir::failed(checkRuntimeNames(module, symbols)))
      return signalPassFailure();

    // On several nodes, the loops whose task creations leave as one message per node,
    // chosen before the epochs' waits become calls.
    SmallVector<scf::ForOp> launches;
    if (moduleNodes(module) > 1)
      launches = launchScopes(module);
    Lowering lowering(module, symbols);
    // Packs first: placing their frees needs the edt_create ops that use them.
    for (EdtParamPackOp pack : packs)
      lowering.lowerParamPack(pack);
    for (Operation *op : ops)
      if (!lowering.fused(op))
        lowering.lower(op);
    for (scf::ForOp loop : launches)
      lowering.bracketLaunch(loop);
    redirectExit(module, symbols);
    inlineAllocaScopes(module);
    if (entry->main)
      lowering.generateEntryPoints(*entry);
    else
      CARTS_DEBUG(kChannel, module) << "no main: no entry points generated\n";
  }
};
} // namespace
