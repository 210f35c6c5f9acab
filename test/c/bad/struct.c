// EXPECT-ERROR: 6:3: unsupported C construct: struct
// A struct type is not in the first version of the subset.
#include <stdio.h>

int main(void) {
  struct point { int x; int y; } p;
  p.x = 1;
  p.y = 2;
  printf("%d\n", p.x + p.y);
  return 0;
}
