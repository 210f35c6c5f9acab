//===- ArtsDialect.cpp - dialect registration and attributes --------------===//

#include "dialect/ArtsDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::arts;

#include "carts/ArtsDialect.cpp.inc"
#include "carts/ArtsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "carts/ArtsAttrs.cpp.inc"

void ArtsDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "carts/ArtsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "carts/ArtsOps.cpp.inc"
      >();
}
