// RUN: not carts cgeist %s -S 2>&1 | FileCheck %s

int main(void) {
  int i = 0;
  if (i == 0)
    // CHECK: unsupported-goto.c:[[@LINE+1]]:5: error: unsupported C construct: goto
    goto done;
  i = 5;
done:
  return i;
}
