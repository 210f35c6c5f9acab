// RUN: rm -f %t.mlir
// RUN: carts cgeist %s -S -O0 --raise-scf-to-affine -o %t.mlir
// RUN: FileCheck %s < %t.mlir

// -o writes the module; -O0 and --raise-scf-to-affine are accepted (and ignored).
// CHECK: func.func @main() -> i32
int main(void) { return 0; }
