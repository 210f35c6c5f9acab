//===- InlineHelpers.cpp - user functions inlined into their callers -------===//
//
// Described in Passes.td (`InlineHelpers`); below, how it does it.
//
// Every call to a defined, non-recursive func.func is replaced by a copy of
// the callee's body, callees first, so that `main` (and whatever is still
// called recursively) ends up holding the program. Later stages trace every
// array a parallel loop touches to its allocation inside one function;
// helpers like `alloc_3d(...)` or `matmul(..., w[l], ...)` hide exactly that.
// Inlined ops keep their own location with the call site stacked on it
// (callsite(op at call)). A callee's fixed-size locals (static memref.alloca)
// move to the top of the caller's frame (function or parallel region), where
// the front end puts its own locals: a call inside a loop would otherwise
// grow the stack each iteration.
//
//===----------------------------------------------------------------------===//

#include "support/Debug.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::arts {
#define GEN_PASS_DEF_INLINEHELPERS
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;

/// The stage's channel: both of its passes print there.
static constexpr llvm::StringLiteral kChannel = "canonicalize-memrefs";

//===----------------------------------------------------------------------===//
// Inlining
//===----------------------------------------------------------------------===//

namespace {
/// The defined functions of a module and the defined functions each calls.
struct CallGraph {
  llvm::MapVector<Operation *, llvm::SetVector<Operation *>> callees;
  llvm::DenseSet<Operation *> recursive;

  explicit CallGraph(ModuleOp module) {
    SymbolTable symbols(module);
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      auto &out = callees[func];
      func.walk([&](func::CallOp call) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (callee && !callee.isExternal())
          out.insert(callee);
      });
    }
    for (auto &entry : callees)
      if (reaches(entry.first, entry.first))
        recursive.insert(entry.first);
  }

  /// Whether `to` is reachable from `from` through at least one call.
  bool reaches(Operation *from, Operation *to) const {
    llvm::SmallPtrSet<Operation *, 16> seen;
    SmallVector<Operation *> stack;
    if (auto it = callees.find(from); it != callees.end())
      stack.append(it->second.begin(), it->second.end());
    while (!stack.empty()) {
      Operation *f = stack.pop_back_val();
      if (f == to)
        return true;
      if (!seen.insert(f).second)
        continue;
      auto it = callees.find(f);
      if (it != callees.end())
        stack.append(it->second.begin(), it->second.end());
    }
    return false;
  }

  /// Every defined function after the functions it calls (cycles cut anywhere).
  SmallVector<func::FuncOp> calleesFirst() const {
    SmallVector<func::FuncOp> order;
    llvm::SmallPtrSet<Operation *, 16> visited;
    std::function<void(Operation *)> visit = [&](Operation *f) {
      if (!visited.insert(f).second)
        return;
      auto it = callees.find(f);
      if (it != callees.end())
        for (Operation *callee : it->second)
          visit(callee);
      order.push_back(cast<func::FuncOp>(f));
    };
    for (auto &entry : callees)
      visit(entry.first);
    return order;
  }
};
} // namespace

/// `loc` seen through one more call: callsite(loc at caller), with an existing
/// call-site chain extended at its outer end (as the upstream inliner does).
static Location stackCallSite(Location loc, Location callerLoc) {
  if (auto site = dyn_cast<CallSiteLoc>(loc))
    return CallSiteLoc::get(site.getCallee(), stackCallSite(site.getCaller(), callerLoc));
  return CallSiteLoc::get(loc, callerLoc);
}

/// The op whose region is the stack frame of ops at `op`: the enclosing
/// function, alloca scope or per-thread OpenMP region (a loop body is not a
/// frame in C, although scf.for is an allocation scope in MLIR).
static Operation *frameOf(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp())
    if (isa<FunctionOpInterface, memref::AllocaScopeOp, omp::ParallelOp, omp::TaskOp,
            omp::TaskgroupOp>(parent))
      return parent;
  return nullptr;
}

/// Why `callee` is not inlined at its calls, or "" when it is.
static StringRef whyNotInlined(func::FuncOp callee, const CallGraph &graph) {
  if (graph.recursive.contains(callee))
    return "it is recursive";
  if (!callee.getBody().hasOneBlock())
    return "its body has more than one block";
  return "";
}

/// Replaces `call` by a copy of the single-block body of `callee`. Returns the
/// number of locals moved to the top of the caller's frame.
static unsigned inlineCall(func::CallOp call, func::FuncOp callee) {
  Block &body = callee.getBody().front();
  Location callLoc = call.getLoc();
  IRMapping mapping;
  for (auto [arg, operand] : llvm::zip(body.getArguments(), call.getOperands()))
    mapping.map(arg, operand);

  OpBuilder builder(call);
  SmallVector<memref::AllocaOp> locals;
  for (Operation &op : body.without_terminator()) {
    Operation *copy = builder.clone(op, mapping);
    copy->walk([&](Operation *nested) {
      nested->setLoc(stackCallSite(nested->getLoc(), callLoc));
      for (Region &region : nested->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setLoc(stackCallSite(arg.getLoc(), callLoc));
    });
    if (auto alloca = dyn_cast<memref::AllocaOp>(copy))
      if (alloca->getNumOperands() == 0)
        locals.push_back(alloca);
  }
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [result, value] : llvm::zip(call.getResults(), ret.getOperands()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(value));

  Operation *frame = frameOf(call);
  call.erase();
  if (!frame || locals.empty())
    return 0;
  Block &top = frame->getRegion(0).front();
  Operation *after = nullptr;
  for (memref::AllocaOp local : locals) {
    if (after)
      local->moveAfter(after);
    else
      local->moveBefore(&top.front());
    after = local;
  }
  return locals.size();
}

/// Inlines every call to a defined non-recursive function, callees first, then
/// erases the functions nothing calls any more: the private ones, and in a
/// program every one but main.
static void inlineHelpers(ModuleOp module) {
  CallGraph graph(module);
  SymbolTable symbols(module);
  for (func::FuncOp caller : graph.calleesFirst()) {
    SmallVector<func::CallOp> calls;
    caller.walk([&](func::CallOp call) { calls.push_back(call); });
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        continue;
      StringRef whyNot = whyNotInlined(callee, graph);
      if (!whyNot.empty()) {
        CARTS_DEBUG(kChannel, call) << "not inlined " << callee.getSymName() << " into "
                                    << caller.getSymName() << ": " << whyNot << "\n";
        continue;
      }
      CARTS_DEBUG(kChannel, call) << "inlined " << callee.getSymName() << " into "
                                  << caller.getSymName() << "\n";
      Location callLoc = call.getLoc();
      if (unsigned hoisted = inlineCall(call, callee))
        CARTS_DEBUG(kChannel, nullptr) << locationString(callLoc) << ": moved "
                                       << countOf(hoisted, "local") << " of "
                                       << callee.getSymName() << " to the top of its frame\n";
    }
  }

  // In a program (a module defining main) nothing but main can reach a
  // function nobody calls, whatever its visibility.
  auto main = symbols.lookup<func::FuncOp>("main");
  bool program = main && !main.isExternal();
  for (bool erased = true; erased;) {
    erased = false;
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
      if (func.isExternal() || func == main || (!program && !func.isPrivate()) ||
          !SymbolTable::symbolKnownUseEmpty(func, module))
        continue;
      CARTS_DEBUG(kChannel, func) << "erased " << func.getSymName() << ": no call left\n";
      symbols.erase(func);
      erased = true;
    }
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct InlineHelpers : arts::impl::InlineHelpersBase<InlineHelpers> {
  using InlineHelpersBase::InlineHelpersBase;

  void runOnOperation() override { inlineHelpers(getOperation()); }
};
} // namespace
