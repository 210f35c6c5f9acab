//===- Debug.cpp - per-pass debug channels --------------------------------===//

#include "support/Debug.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <mutex>

using namespace mlir;

namespace {
std::mutex channelsMutex;
llvm::StringSet<> &channels() {
  static llvm::StringSet<> set;
  return set;
}
} // namespace

bool mlir::arts::isDebugChannelOn(llvm::StringRef channel) {
  std::lock_guard<std::mutex> lock(channelsMutex);
  return channels().contains(channel) || channels().contains("all");
}

std::string mlir::arts::locationString(Location loc) {
  std::string result = "unknown";
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      result = (file.getFilename().getValue() + ":" + llvm::Twine(file.getLine()) + ":" +
                llvm::Twine(file.getColumn()))
                   .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result;
}

llvm::raw_ostream &mlir::arts::debugLine(llvm::StringRef channel, Operation *op) {
  llvm::raw_ostream &os = llvm::errs();
  os << "[" << channel << "] ";
  if (op)
    os << locationString(op->getLoc()) << ": ";
  return os;
}

extern "C" __attribute__((visibility("default"))) void cartsSetDebugChannels(const char *list) {
  std::lock_guard<std::mutex> lock(channelsMutex);
  channels().clear();
  llvm::SmallVector<llvm::StringRef> names;
  llvm::StringRef(list ? list : "").split(names, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef name : names)
    channels().insert(name.trim());
}

std::string mlir::arts::countOf(unsigned n, llvm::StringRef noun) {
  return (llvm::Twine(n) + " " + noun + (n == 1 ? "" : "s")).str();
}
