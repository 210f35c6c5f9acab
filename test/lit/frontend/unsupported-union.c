// RUN: not carts cgeist %s -S 2>&1 | FileCheck %s

// CHECK: unsupported-union.c:[[@LINE+1]]:1: error: unsupported C construct: union
union bits { int i; float f; };
int main(void) { return 0; }
