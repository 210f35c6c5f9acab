//===- Debug.h - per-pass debug channels (--debug-only) -------------------===//
//
// Each pass prints its decisions on a named channel, one decision per line,
// prefixed by the channel and the location of the op it decided about:
//
//   CARTS_DEBUG("db", op) << "partition=block mode=inout\n";
//   => [db] batchnorm.c:42:5: partition=block mode=inout
//
// Channels are switched on from Python (`--debug-only=db,for-lowering`); the
// plugin is built without assertions, so LLVM_DEBUG is not an option.
//
//===----------------------------------------------------------------------===//

#ifndef CARTS_SUPPORT_DEBUG_H
#define CARTS_SUPPORT_DEBUG_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::arts {
/// True when `channel` was named in --debug-only (or "all" was).
bool isDebugChannelOn(llvm::StringRef channel);
/// Starts one debug line: `[channel] file:line:col: `; the caller ends it with "\n".
llvm::raw_ostream &debugLine(llvm::StringRef channel, Operation *op);
/// `file:line:col` of an op (the first file location inside fused/named ones), or "unknown".
std::string locationString(Location loc);
/// "1 load", "3 loads": a count and its noun for a debug line.
std::string countOf(unsigned n, llvm::StringRef noun);
} // namespace mlir::arts

#define CARTS_DEBUG(channel, op)                                                                  \
  if (!::mlir::arts::isDebugChannelOn(channel)) {                                                 \
  } else                                                                                          \
    ::mlir::arts::debugLine(channel, op)

#endif // CARTS_SUPPORT_DEBUG_H
