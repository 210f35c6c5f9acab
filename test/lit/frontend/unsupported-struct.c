// RUN: not carts cgeist %s -S 2>&1 | FileCheck %s

// Structs are outside the supported subset: a located error, nothing on stdout.
// CHECK: unsupported-struct.c:[[@LINE+2]]:3: error: unsupported C construct: struct
int main(void) {
  struct point { int x, y; } p;
  p.x = 1;
  return p.x;
}
// CHECK-NOT: module
