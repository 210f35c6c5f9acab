//===- CollectMetadata.cpp - loop and array facts keyed by source location -===//
//
// Described in Passes.td (`CollectMetadata`); the analysis is src/analysis/
// (MetadataAnalysis.h). This file turns its facts into attributes and the JSON
// hand-off file, and matches the file's records to ops by location.
//
//===----------------------------------------------------------------------===//

#include "support/Debug.h"
#include "analysis/MetadataAnalysis.h"
#include "passes/PassDetail.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace mlir::arts {
#define GEN_PASS_DEF_COLLECTMETADATA
#include "carts/Passes.h.inc"
} // namespace mlir::arts

using namespace mlir;
using namespace mlir::arts;
namespace json = llvm::json;

static constexpr llvm::StringLiteral kChannel = "collect-metadata";
static constexpr int64_t kFormatVersion = 1;

//===----------------------------------------------------------------------===//
// Facts as JSON and as attributes, the file
//===----------------------------------------------------------------------===//

static Attribute toAttribute(MLIRContext *ctx, const json::Value &value) {
  Builder b(ctx);
  switch (value.kind()) {
  case json::Value::Null:
    return b.getUnitAttr();
  case json::Value::Boolean:
    return b.getBoolAttr(*value.getAsBoolean());
  case json::Value::Number:
    if (auto i = value.getAsInteger())
      return b.getI64IntegerAttr(*i);
    return b.getF64FloatAttr(*value.getAsNumber());
  case json::Value::String:
    return b.getStringAttr(*value.getAsString());
  case json::Value::Array: {
    SmallVector<Attribute> elements;
    for (const json::Value &e : *value.getAsArray())
      elements.push_back(toAttribute(ctx, e));
    return b.getArrayAttr(elements);
  }
  case json::Value::Object: {
    SmallVector<NamedAttribute> entries;
    for (const auto &[k, v] : *value.getAsObject())
      if (v.kind() != json::Value::Null) // absent = null (e.g. a symbolic trip count)
        entries.push_back(b.getNamedAttr(k.str(), toAttribute(ctx, v)));
    return b.getDictionaryAttr(entries);
  }
  }
  return b.getUnitAttr();
}

static json::Object toJson(const LoopFacts &facts) {
  json::Object o;
  o["op"] = facts.op;
  o["trip_count"] = facts.tripCount ? json::Value(*facts.tripCount) : json::Value(nullptr);
  if (!facts.tripCount)
    o["trip_expr"] = facts.tripExpr;
  o["level"] = facts.level;
  o["class"] = loopClassName(facts.loopClass).str();
  o["loop_carried"] = facts.loopClass == LoopClass::Parallel  ? "no"
                      : facts.loopClass == LoopClass::Unknown ? "unknown"
                                                              : "yes";
  if (!facts.reason.empty())
    o["reason"] = facts.reason;
  json::Array reductions;
  for (const ReductionFact &r : facts.reductions)
    reductions.push_back(json::Object{{r.ofArray ? "array" : "value", r.name}, {"kind", r.kind}});
  o["reductions"] = std::move(reductions);
  o["private"] = json::Array(facts.privates);
  o["carried"] = json::Array(facts.carried);
  o["reads"] = json::Array(facts.reads);
  o["writes"] = json::Array(facts.writes);
  return o;
}

static json::Object toJson(const ArrayFacts &facts) {
  json::Object o;
  o["op"] = facts.op;
  o["type"] = facts.type;
  o["rank"] = facts.rank ? json::Value(*facts.rank) : json::Value(nullptr);
  o["element_type"] = facts.elementType;
  o["shape"] = facts.shape;
  o["static_shape"] = facts.staticShape;
  if (facts.nested)
    o["nested"] = true;
  if (facts.storedIntoArray)
    o["stored_into_array"] = true;
  o["reads"] = facts.reads;
  o["writes"] = facts.writes;
  o["dims"] = json::Array(facts.dims);
  return o;
}

/// The record's facts as the file holds them.
static json::Object toJson(const MetadataRecord &r) {
  return r.isLoop ? toJson(r.loop) : toJson(r.array);
}

static DictionaryAttr factsAttr(MLIRContext *ctx, const json::Object &facts, StringRef key,
                                StringRef origin) {
  json::Object copy = facts;
  if (!key.empty())
    copy["location"] = key.str();
  copy["origin"] = origin.str();
  return cast<DictionaryAttr>(toAttribute(ctx, json::Value(std::move(copy))));
}

/// The `#n` of a key given to the n-th op at one source location, or "".
static StringRef instanceSuffix(StringRef key) {
  size_t hash = key.rfind('#');
  return hash == StringRef::npos ? StringRef() : key.drop_front(hash);
}

static std::string describeLoop(const json::Object &facts, StringRef key) {
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "loop" << instanceSuffix(key) << " trip=";
  if (auto trip = facts.getInteger("trip_count"))
    os << *trip;
  else
    os << "?";
  os << " level=" << facts.getInteger("level").value_or(-1)
     << " class=" << facts.getString("class").value_or("?");
  const json::Array *reductions = facts.getArray("reductions");
  if (reductions && !reductions->empty()) {
    os << " reductions=[";
    llvm::interleaveComma(*reductions, os, [&](const json::Value &r) {
      const json::Object *obj = r.getAsObject();
      if (!obj)
        return;
      auto target = obj->getString("array");
      os << obj->getString("kind").value_or("?") << "("
         << (target ? *target : obj->getString("value").value_or("?")) << ")";
    });
    os << "]";
  }
  if (const json::Array *privates = facts.getArray("private"); privates && !privates->empty()) {
    os << " private=[";
    llvm::interleaveComma(*privates, os, [&](const json::Value &p) {
      os << p.getAsString().value_or("?");
    });
    os << "]";
  }
  if (auto reason = facts.getString("reason"))
    os << " (" << *reason << ")";
  return line;
}

static std::string describeArray(const json::Object &facts, StringRef key) {
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "array" << instanceSuffix(key) << " " << facts.getString("type").value_or("?") << " rank=";
  if (auto rank = facts.getInteger("rank"))
    os << *rank;
  else
    os << "?";
  os << " reads=" << facts.getInteger("reads").value_or(0)
     << " writes=" << facts.getInteger("writes").value_or(0) << " dims=[";
  if (const json::Array *dims = facts.getArray("dims"))
    llvm::interleave(
        *dims, os, [&](const json::Value &d) { os << d.getAsString().value_or("?"); }, ",");
  os << "]";
  return line;
}

/// Writes `contents` next to `path` under a unique name, then renames it over
/// `path`: a reader never sees half a file.
static LogicalResult writeFileAtomically(StringRef path, StringRef contents, std::string &error) {
  SmallString<256> tmp;
  int fd;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, tmp)) {
    error = ec.message();
    return failure();
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      error = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(tmp);
      return failure();
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(tmp, path)) {
    error = ec.message();
    llvm::sys::fs::remove(tmp);
    return failure();
  }
  return success();
}

/// The file the module was compiled from: main's, else the first one found.
static std::string sourceFileOf(ModuleOp module) {
  if (auto main = module.lookupSymbol("main"))
    if (FileLineColLoc file = firstFileLocation(main->getLoc()))
      return file.getFilename().str();
  std::string found;
  module.walk([&](Operation *op) {
    if (FileLineColLoc file = firstFileLocation(op->getLoc())) {
      found = file.getFilename().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

namespace {
/// The records of a metadata file, checked for shape.
struct MetadataFile {
  std::string source;
  const json::Object *loops = nullptr;
  const json::Object *arrays = nullptr;
  json::Value root = nullptr;
};
} // namespace

static FailureOr<MetadataFile> readMetadataFile(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = buffer.getError().message();
    return failure();
  }
  MetadataFile file;
  llvm::Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed) {
    error = llvm::toString(parsed.takeError());
    return failure();
  }
  file.root = std::move(*parsed);
  const json::Object *root = file.root.getAsObject();
  if (!root) {
    error = "the top level is not an object";
    return failure();
  }
  auto version = root->getInteger("version");
  if (!version || *version != kFormatVersion) {
    error = "\"version\" is not " + std::to_string(kFormatVersion);
    return failure();
  }
  file.source = root->getString("source").value_or("").str();
  file.loops = root->getObject("loops");
  file.arrays = root->getObject("arrays");
  if (!file.loops || !file.arrays) {
    error = "\"loops\" and \"arrays\" must be objects";
    return failure();
  }
  for (const json::Object *table : {file.loops, file.arrays})
    for (const auto &[key, record] : *table)
      if (!record.getAsObject()) {
        error = "the record of \"" + key.str() + "\" is not an object";
        return failure();
      }
  return file;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct CollectMetadata : arts::impl::CollectMetadataBase<CollectMetadata> {
  using CollectMetadataBase::CollectMetadataBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool hasOpenMP = false;
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<omp::OpenMPDialect>(op->getDialect())) {
        hasOpenMP = true;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    std::vector<MetadataRecord> records = analyseLoopsAndArrays(module);
    if (hasOpenMP ? failed(importFacts(records)) : failed(exportFacts(records)))
      signalPassFailure();
  }

  /// Sequential compile: attach and write the file.
  LogicalResult exportFacts(std::vector<MetadataRecord> &records) {
    ModuleOp module = getOperation();
    json::Object loops, arrays;
    for (MetadataRecord &r : records) {
      json::Object facts = toJson(r);
      attach(r, facts, "sequential");
      if (!r.key.empty())
        (r.isLoop ? loops : arrays)[r.key] = std::move(facts);
    }
    size_t loopCount = loops.size(), arrayCount = arrays.size();
    json::Object root{{"version", kFormatVersion},
                      {"source", sourceFileOf(module)},
                      {"loops", std::move(loops)},
                      {"arrays", std::move(arrays)}};
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", json::Value(std::move(root))) << "\n";
    std::string error;
    if (failed(writeFileAtomically(metadataFile, text, error)))
      return module.emitError() << "cannot write the metadata file '" << metadataFile
                                << "': " << error;
    CARTS_DEBUG(kChannel, nullptr) << "wrote " << loopCount << " loop and " << arrayCount
                                   << " array facts to " << metadataFile << "\n";
    return success();
  }

  /// OpenMP compile: attach the sequential compile's facts where recorded, this
  /// module's own analysis elsewhere.
  LogicalResult importFacts(std::vector<MetadataRecord> &records) {
    ModuleOp module = getOperation();
    std::optional<MetadataFile> file;
    if (llvm::sys::fs::exists(metadataFile)) {
      std::string error;
      FailureOr<MetadataFile> read = readMetadataFile(metadataFile, error);
      if (failed(read))
        return module.emitError() << "malformed metadata file '" << metadataFile << "': " << error;
      std::string mine = sourceFileOf(module);
      if (llvm::sys::path::filename(read->source) == llvm::sys::path::filename(mine)) {
        file = std::move(*read);
      } else {
        CARTS_DEBUG(kChannel, nullptr)
            << metadataFile << " describes '" << read->source << "', not '" << mine
            << "': analysing this module instead\n";
      }
    } else {
      CARTS_DEBUG(kChannel, nullptr) << "no " << metadataFile
                                     << ": analysing the OpenMP compile itself\n";
    }

    unsigned imported[2] = {0, 0}, own[2] = {0, 0}; // [array, loop]
    for (MetadataRecord &r : records) {
      const json::Object *table = file ? (r.isLoop ? file->loops : file->arrays) : nullptr;
      const json::Object *recorded = table && !r.key.empty() ? table->getObject(r.key) : nullptr;
      if (recorded) {
        ++imported[r.isLoop];
        attach(r, *recorded, "sequential");
      } else {
        ++own[r.isLoop];
        attach(r, toJson(r), "parallel");
      }
    }
    if (file)
      CARTS_DEBUG(kChannel, nullptr)
          << "imported " << imported[1] << " loop and " << imported[0] << " array facts from "
          << metadataFile << " (" << own[1] << " loops and " << own[0]
          << " arrays without a record analysed here)\n";
    return success();
  }

  /// Sets `arts.metadata` on the record's op (or function argument), with one debug line.
  /// An omp.loop_nest's facts go on its wrapper (omp.wsloop): the loop_nest printer drops
  /// discardable attributes, and the wrapper is what openmp-to-arts turns into arts.for.
  void attach(const MetadataRecord &r, const json::Object &facts, StringRef origin) {
    DictionaryAttr attr = factsAttr(&getContext(), facts, r.key, origin);
    std::string line = r.isLoop ? describeLoop(facts, r.key) : describeArray(facts, r.key);
    if (r.argument < 0) {
      Operation *target = r.op;
      if (isa<omp::LoopNestOp>(target) &&
          isa_and_nonnull<omp::LoopWrapperInterface>(target->getParentOp()))
        target = target->getParentOp();
      target->setAttr(kMetadataAttrName, attr);
      CARTS_DEBUG(kChannel, r.op) << line << " origin=" << origin << "\n";
      return;
    }
    auto func = cast<FunctionOpInterface>(r.op);
    func.setArgAttr(r.argument, kMetadataAttrName, attr);
    CARTS_DEBUG(kChannel, nullptr) << locationString(func.getArgument(r.argument).getLoc())
                                   << ": argument #" << r.argument << " of @" << func.getName()
                                   << ": " << line << " origin=" << origin << "\n";
  }
};
} // namespace
