//===- ArtsDialect.h - the ARTS dialect -----------------------------------===//

#ifndef CARTS_DIALECT_ARTSDIALECT_H
#define CARTS_DIALECT_ARTSDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "carts/ArtsDialect.h.inc"
#include "carts/ArtsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "carts/ArtsAttrs.h.inc"

#define GET_OP_CLASSES
#include "carts/ArtsOps.h.inc"

namespace mlir::arts {

/// The ARTS dialect of `op`'s context. Its typed accessors read and write the
/// attributes passes hand on to later passes (declared in ArtsDialect.td), e.g.
/// `artsDialect(loop)->getLaunchLoopAttrHelper().isAttrPresent(loop)`.
inline ArtsDialect *artsDialect(Operation *op) {
  return op->getContext()->getOrLoadDialect<ArtsDialect>();
}

} // namespace mlir::arts

#endif // CARTS_DIALECT_ARTSDIALECT_H
