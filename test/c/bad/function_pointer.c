// EXPECT-ERROR: 8:3: unsupported C construct: function pointer
// Function pointers are not in the subset.
#include <stdio.h>

static int twice(int x) { return 2 * x; }

int main(void) {
  int (*fn)(int) = twice;
  printf("%d\n", fn(21));
  return 0;
}
