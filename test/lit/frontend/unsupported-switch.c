// RUN: not carts cgeist %s -S 2>&1 | FileCheck %s

int classify(int k) {
  // CHECK: unsupported-switch.c:[[@LINE+1]]:3: error: unsupported C construct: switch
  switch (k) {
  case 0:
    return 1;
  default:
    return 2;
  }
}
