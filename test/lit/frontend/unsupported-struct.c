// RUN: not carts cgeist %s -S 2>&1 | FileCheck %s

// A struct whose fields have different types is outside the subset: a located error at
// the struct, nothing on stdout.
// CHECK: unsupported-struct.c:[[@LINE+2]]:3: error: unsupported C construct: struct (a struct is supported when all its fields have one arithmetic type)
int main(void) {
  struct point { int x; double y; } p;
  p.x = 1;
  return p.x;
}
// CHECK-NOT: module
