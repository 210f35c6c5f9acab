// RUN: not carts cgeist %s -S 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not carts cgeist %s -S -DMISSING 2>&1 | FileCheck %s --check-prefix=INCLUDE
// RUN: rm -f %t.mlir
// RUN: not carts cgeist %s -S -o %t.mlir
// RUN: not ls %t.mlir

// Clang's own diagnostics come through located, with exit code 1, and -o is only
// written when compilation succeeds.

#ifdef MISSING
// INCLUDE: clang-errors.c:[[@LINE+1]]:10: error: 'no_such_header.h' file not found
#include "no_such_header.h"
#endif

int main(void) {
  // SYNTAX: clang-errors.c:[[@LINE+1]]:12: error: expected ';' at end of declaration
  int x = 1
  return x;
}
