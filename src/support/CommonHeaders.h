//===- CommonHeaders.h - upstream headers every plugin file shares -------------===//
//
// The MLIR and LLVM headers most of the plugin's files include. CMake precompiles this
// header once and puts it in front of every C++ file of the plugin: parsing these headers
// was most of each file's compile time (a pass of 900 lines: 12 s, 4 s with the header
// precompiled). Files still include what they use themselves; this list only has to be
// a common subset, and adding to it makes every file see more declarations.
//
//===----------------------------------------------------------------------------===//

#ifndef CARTS_SUPPORT_COMMONHEADERS_H
#define CARTS_SUPPORT_COMMONHEADERS_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#endif // CARTS_SUPPORT_COMMONHEADERS_H
