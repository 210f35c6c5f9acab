//===- LaunchFanout.cpp - launch loops shared with launcher tasks ---------===//
//
// Described in Passes.td (`LaunchFanout`); below, how it does it.
//
// A launch loop (`scf.for` marked `arts.launch_loop`) whose body only computes
// values, packs parameters, creates tasks in an epoch and records `stable`
// dependences can run anywhere inside that epoch: stable acquires take no
// place in their datablock's order, so which core records them, and when,
// changes nothing; the tasks it creates are counted in the epoch before the
// task creating them ends, so the epoch's wait still covers them.
//
// Such a loop is cut into groups of at most `per-launcher` iterations.
// Each group becomes one launcher task (`__arts_launch_<n>`, the EDT ABI, no
// dependences) that runs the loop over its range. Of the eligible loops that
// create in one epoch from one block, the last keeps its last group on the
// creator, which launches it itself after starting the launchers: the
// creator then makes one launch per group instead of one per task, and the
// launchers make theirs in parallel. Which loops stay with the creator is
// policy/Launching's decision.
//
//   scf.for %i = %lb to %ub step %s { <launch> } {arts.launch_loop}
// becomes
//   scf.for %g = 0 to <groups handed out> {
//     %pv = arts.edt_param_pack(<group bounds>, <captures>) : memref<?xi64>
//     %t = arts.edt_create @__arts_launch_0(%pv ...) deps(0) route(<a worker>) epoch(%e)
//   }
//   scf.for %i = <start of the kept group> to %ub step %s { <launch> }  // last loop only
//
// Launchers ask for the workers from the last one down (worker threads-1 for
// the first launcher, threads-2 for the second, ...): chunk tasks ask for
// workers from 0 up, so the launchers land where the fewest chunks wait.
//
// Before that, routes are spread (`spread`): a chunk loop of fewer chunks than
// workers asks for workers 0, 1, ... (chunk b, route b + 1). When an epoch
// gets several such loops that touch nothing another of them writes (the
// q, k and v products of a transformer layer, fused into one epoch), they all
// crowd the first workers; each loop's routes move past the chunks launched
// before it, so the loops run side by side. A task that touches what the
// earlier ones write starts again from worker 0.
//
// Captured values: constants are re-created in the launcher; words (index,
// integers, floats, pointers) are packed; a memref with the identity layout
// (a GUID table) travels as its aligned address and extents and is rebuilt
// over that address, as arts-edt-lowering does. A loop capturing anything
// else stays where it is.
//
//===----------------------------------------------------------------------===//

#include "policy/Chunking.h"
#include "policy/Launching.h"
#include "support/ArtsUtils.h"
#include "support/Debug.h"
#include "support/LoweringUtils.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_LAUNCHFANOUT
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

namespace {
constexpr const char *kChannel = "launch-fanout";

/// How a value the loop uses travels to a launcher.
enum class Capture { Rematerialized, Packed, ByAddress };

struct LaunchLoop {
  scf::ForOp loop;
  Value epoch;
  SmallVector<std::pair<Value, Capture>> captures;
};

/// Why `loop` cannot be run by a launcher, or "" when it can (then `out` is filled).
std::string whyNotShared(scf::ForOp loop, LaunchLoop &out) {
  out.loop = loop;
  if (loop.getNumResults())
    return "it carries values from one iteration to the next";
  if (!loop->getParentOfType<func::FuncOp>())
    return "it is not in a func.func";
  Block &body = *loop.getBody();
  for (Operation &op : body.without_terminator()) {
    if (auto create = dyn_cast<EdtCreateOp>(op)) {
      Value epoch = create.getEpoch();
      if (!epoch)
        return "a task is created outside any epoch of the loop's function";
      if (out.epoch && out.epoch != epoch)
        return "tasks are created in two epochs";
      out.epoch = epoch;
      continue;
    }
    if (auto recDep = dyn_cast<RecDepOp>(op)) {
      if (!recDep.getStable())
        return "a dependence takes its place in its datablock's order (not stable)";
      continue;
    }
    if (isa<EdtParamPackOp>(op))
      continue;
    if (op.getNumRegions() || !isMemoryEffectFree(&op))
      return "'" + op.getName().getStringRef().str() + "' is not a computation of values";
  }
  if (!out.epoch)
    return "it creates no task";

  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(loop.getRegion(), used);
  if (!isRematerializable(loop.getStep()))
    used.insert(loop.getStep());
  for (Value v : used) {
    if (isRematerializable(v)) {
      out.captures.push_back({v, Capture::Rematerialized});
    } else if (isWordType(v.getType())) {
      out.captures.push_back({v, Capture::Packed});
    } else if (auto type = dyn_cast<MemRefType>(v.getType());
               type && type.getLayout().isIdentity() &&
               isWordType(type.getElementType())) {
      out.captures.push_back({v, Capture::ByAddress});
    } else {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << "it uses a value of type " << v.getType() << " that a launcher cannot receive";
      return s;
    }
  }
  return "";
}

struct LaunchFanout : public arts::impl::LaunchFanoutBase<LaunchFanout> {
  using LaunchFanoutBase::LaunchFanoutBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t threads = moduleThreads(module);
    if (std::optional<std::string> why = launchersRefused(threads, moduleNodes(module))) {
      CARTS_DEBUG(kChannel, module) << "no launchers: " << *why << "\n";
      return;
    }
    if (spread)
      module.walk([&](Block *block) { spreadRoutes(*block, threads); });
    if (perLauncher <= 0)
      return;
    SymbolTable symbols(module);

    // Eligible loops, by the block and epoch they launch from, in block order.
    llvm::MapVector<std::pair<Block *, Value>, SmallVector<LaunchLoop>> groups;
    module.walk([&](scf::ForOp loop) {
      if (!artsDialect(loop)->getLaunchLoopAttrHelper().isAttrPresent(loop))
        return;
      LaunchLoop entry;
      std::string why = whyNotShared(loop, entry);
      if (!why.empty()) {
        CARTS_DEBUG(kChannel, loop) << "the creator keeps this launch loop: " << why << "\n";
        return;
      }
      groups[{loop->getBlock(), entry.epoch}].push_back(std::move(entry));
    });

    unsigned nextIndex = 0;
    for (auto &[key, loops] : groups) {
      llvm::sort(loops, [](const LaunchLoop &a, const LaunchLoop &b) {
        return a.loop->isBeforeInBlock(b.loop);
      });
      // Launchers handed out so far from this block and epoch: the next one's worker.
      OpBuilder b(loops.front().loop);
      Value handedOut = arith::ConstantIndexOp::create(b, loops.front().loop.getLoc(), 0);
      for (auto [k, entry] : llvm::enumerate(loops)) {
        bool last = k + 1 == loops.size();
        handedOut = share(entry, last, handedOut, threads, symbols, nextIndex);
      }
    }
  }

  /// What a task's dependences touch: each GUID table's allocation, and whether the task
  /// may write it.
  using Accesses = SmallVector<std::pair<Value, bool>>;

  static void addAccesses(EdtCreateOp create, Accesses &out) {
    for (Operation *user : create.getResult().getUsers())
      if (auto recDep = dyn_cast<RecDepOp>(user))
        for (auto [table, attr] : llvm::zip_equal(recDep.getGuids(), recDep.getAcquireModes()))
          out.push_back({viewRoot(table), cast<ArtsModeAttr>(attr).getValue() != ArtsMode::in});
  }

  static bool conflict(const Accesses &a, const Accesses &b) {
    for (auto [x, xWrites] : a)
      for (auto [y, yWrites] : b)
        if (x == y && (xWrites || yWrites))
          return true;
    return false;
  }

  /// Launch loops of fewer chunks than workers ask for workers from 0 up (chunk b, worker
  /// b). Several such loops launched into one epoch, none touching what another writes,
  /// would crowd the first workers; each asks instead for the workers after the previous
  /// ones' (its routes move by the chunks launched before it). A task that touches what the
  /// loops before it write starts a new wave from worker 0: it waits for them anyway, and
  /// their workers hold what it reads.
  void spreadRoutes(Block &block, int64_t threads) {
    struct Wave {
      int64_t offset = 0;
      Accesses accesses;
    };
    llvm::DenseMap<Value, Wave> waves; // by epoch
    for (Operation &op : block) {
      auto loop = dyn_cast<scf::ForOp>(op);
      if (loop && !artsDialect(loop)->getLaunchLoopAttrHelper().isAttrPresent(loop))
        loop = nullptr;
      EdtCreateOp create = loop ? nullptr : dyn_cast<EdtCreateOp>(op);
      unsigned creates = 0;
      if (loop || op.getNumRegions())
        op.walk([&](EdtCreateOp c) {
          create = c;
          // one is all a loop may have, and all another op needs to reset the waves
          return ++creates > (loop ? 1u : 0u) ? WalkResult::interrupt() : WalkResult::advance();
        });
      if (creates > 1 || (creates && !loop)) {
        // tasks this walk does not follow (several an iteration, or inside other regions):
        // whatever they touch and wherever they run, the next loop starts from worker 0
        waves.clear();
        continue;
      }
      if (!create || !create.getEpoch())
        continue;
      Wave &wave = waves[create.getEpoch()];
      Accesses accesses;
      addAccesses(create, accesses);
      if (conflict(wave.accesses, accesses))
        wave = Wave();
      wave.accesses.append(accesses);
      if (!loop)
        continue;
      std::optional<int64_t> trips = constantTripCount(loop);
      if (!trips || *trips >= threads || matchPattern(create.getRoute(), m_Zero())) {
        wave = Wave(); // it uses every worker, or asks for none
        continue;
      }
      if (wave.offset % threads) {
        OpBuilder b(create);
        Value shift = arith::ConstantIntOp::create(b, create.getLoc(), b.getI32Type(),
                                                   wave.offset % threads);
        Value route = arith::AddIOp::create(b, create.getLoc(), create.getRoute(), shift);
        create.getRouteMutable().assign(route);
        CARTS_DEBUG(kChannel, loop) << "launch loop of " << *trips
                                    << " chunks: its routes move by " << wave.offset % threads
                                    << ", past the chunks launched before it in its epoch\n";
      }
      wave.offset += *trips;
    }
  }

  /// Hands `entry`'s groups to launchers (all but the last when `last`), starting at launcher
  /// number `handedOut`; returns the number handed out after it.
  Value share(LaunchLoop &entry, bool last, Value handedOut, int64_t threads,
              SymbolTable &symbols, unsigned &nextIndex) {
    scf::ForOp loop = entry.loop;
    Location loc = loop.getLoc();
    IntegerAttr ops = artsDialect(loop)->getChunkOpsAttrHelper().getAttr(loop);
    if (std::optional<std::string> why =
            creatorKeeps(ops ? std::optional<int64_t>(ops.getInt()) : std::nullopt,
                         constantTripCount(loop), last, perLauncher)) {
      CARTS_DEBUG(kChannel, loop) << "the creator keeps this launch loop: " << *why << "\n";
      return handedOut;
    }
    OpBuilder b(loop);
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    auto cst = [&](int64_t v) { return arith::ConstantIndexOp::create(b, loc, v).getResult(); };

    // Trips and groups: ceil((ub - lb) / step), ceil(trips / perLauncher).
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), step = loop.getStep();
    Value span = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, ub, lb), cst(0));
    Value trips = arith::CeilDivSIOp::create(b, loc, span, step);
    Value groupCount = arith::CeilDivSIOp::create(b, loc, trips, cst(perLauncher));
    Value handed = last ? arith::MaxSIOp::create(
                              b, loc, arith::SubIOp::create(b, loc, groupCount, cst(1)), cst(0))
                              .getResult()
                        : groupCount;
    Value groupSpan = arith::MulIOp::create(b, loc, step, cst(perLauncher));

    // What every launcher receives after its group's bounds, computed once.
    SmallVector<Value> captured;
    for (auto &[v, how] : entry.captures) {
      if (how == Capture::Packed) {
        captured.push_back(v);
      } else if (how == Capture::ByAddress) {
        captured.push_back(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v));
        auto type = cast<MemRefType>(v.getType());
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (type.isDynamicDim(d))
            captured.push_back(memref::DimOp::create(b, loc, v, d));
      }
    }

    std::string name = nextFunctionName(symbols, nextIndex);
    auto launcher = scf::ForOp::create(b, loc, cst(0), handed, cst(1));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(launcher.getBody());
      Value g = launcher.getInductionVar();
      Value groupLb =
          arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, g, groupSpan));
      Value groupUb =
          arith::MinSIOp::create(b, loc, arith::AddIOp::create(b, loc, groupLb, groupSpan), ub);
      // Worker threads-1-(n mod threads) for launcher n; routes count workers from 1.
      Value n = arith::AddIOp::create(b, loc, handedOut, g);
      Value worker = arith::SubIOp::create(b, loc, cst(threads - 1),
                                           arith::RemSIOp::create(b, loc, n, cst(threads)));
      Value route = arith::IndexCastOp::create(
          b, loc, i32, arith::AddIOp::create(b, loc, worker, cst(1)));
      SmallVector<Value> words = {groupLb, groupUb};
      words.append(captured);
      auto paramsType = MemRefType::get({ShapedType::kDynamic}, i64);
      Value params = EdtParamPackOp::create(b, loc, paramsType, words);
      Value none = arith::ConstantIntOp::create(b, loc, i32, 0);
      EdtCreateOp::create(b, loc, i64, name, params, none, route, entry.epoch);
    }
    outline(entry, name, symbols);

    Value after = arith::AddIOp::create(b, loc, handedOut, handed);
    CARTS_DEBUG(kChannel, loop) << "launch loop shared: groups of " << perLauncher
                                << " launches each become a launcher task @" << name
                                << (last ? "; the creator launches the last group itself\n"
                                         : "\n");
    if (last)
      loop.getLowerBoundMutable().assign(
          arith::AddIOp::create(b, loc, lb, arith::MulIOp::create(b, loc, handed, groupSpan)));
    else
      loop.erase();
    return after;
  }

  /// The launcher function: the loop over the group its parameters name.
  void outline(LaunchLoop &entry, StringRef name, SymbolTable &symbols) {
    scf::ForOp loop = entry.loop;
    Location loc = loop.getLoc();
    MLIRContext *ctx = loop.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto fn = func::FuncOp::create(loc, name, edtFunctionType(ctx));
    fn.setPrivate();
    artsDialect(fn)->getEdtFunctionAttrHelper().setAttr(fn, UnitAttr::get(ctx));
    symbols.insert(fn, loop->getParentOfType<func::FuncOp>()->getIterator());
    Block *body = fn.addEntryBlock();
    OpBuilder fb = OpBuilder::atBlockBegin(body);

    SmallVector<Type> types = {fb.getIndexType(), fb.getIndexType()};
    for (auto &[v, how] : entry.captures) {
      if (how == Capture::Packed) {
        types.push_back(v.getType());
      } else if (how == Capture::ByAddress) {
        types.push_back(fb.getI64Type());
        auto type = cast<MemRefType>(v.getType());
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (type.isDynamicDim(d))
            types.push_back(fb.getIndexType());
      }
    }
    auto unpack = EdtParamUnpackOp::create(fb, loc, types, body->getArgument(1));
    IRMapping map;
    unsigned next = 2;
    for (auto &[v, how] : entry.captures) {
      if (how == Capture::Rematerialized) {
        fb.clone(*v.getDefiningOp(), map);
      } else if (how == Capture::Packed) {
        map.map(v, unpack.getResult(next++));
      } else {
        Value raw = LLVM::IntToPtrOp::create(fb, loc, ptrType, unpack.getResult(next++));
        auto type = cast<MemRefType>(v.getType());
        SmallVector<Value> extents;
        for (int64_t d = 0; d < type.getRank(); ++d)
          extents.push_back(type.isDynamicDim(d)
                                ? unpack.getResult(next++)
                                : arith::ConstantIndexOp::create(fb, loc, type.getDimSize(d))
                                      .getResult());
        map.map(v, buildPayloadView(fb, loc, raw, type, extents));
      }
    }
    Value step = map.lookupOrDefault(loop.getStep());
    if (step == loop.getStep()) // a constant step, not among the captures
      step = fb.clone(*loop.getStep().getDefiningOp())->getResult(0);
    auto clone = scf::ForOp::create(fb, loc, unpack.getResult(0), unpack.getResult(1), step);
    clone->setAttrs(loop->getAttrs());
    map.map(loop.getInductionVar(), clone.getInductionVar());
    OpBuilder cb = OpBuilder::atBlockBegin(clone.getBody());
    for (Operation &op : loop.getBody()->without_terminator())
      cb.clone(op, map);
    func::ReturnOp::create(fb, loc);
  }

  static std::string nextFunctionName(SymbolTable &symbols, unsigned &nextIndex) {
    while (true) {
      std::string name = "__arts_launch_" + std::to_string(nextIndex++);
      if (!symbols.lookup(name))
        return name;
    }
  }
};
} // namespace
