// RUN: not carts cgeist %s -S 2>&1 | FileCheck %s

// A struct with a field that is not an arithmetic scalar or an array of them (a pointer) is outside
// the subset: a located error at the struct, nothing on stdout.
// CHECK: unsupported-struct.c:[[@LINE+2]]:3: error: unsupported C construct: struct (a struct is supported when its fields are arithmetic scalars, arrays of them or such structs)
int main(void) {
  struct vec { int n; double *data; } v;
  v.n = 1;
  return v.n;
}
// CHECK-NOT: module
