// RUN: not carts cgeist %s -S 2>&1 | FileCheck %s

static int twice(int x) { return 2 * x; }

int main(void) {
  // CHECK: unsupported-function-pointer.c:[[@LINE+1]]:3: error: unsupported C construct: function pointer
  int (*fn)(int) = twice;
  return fn(21);
}
