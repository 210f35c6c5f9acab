// EXPECT-ERROR: 6:3: unsupported C construct: struct
// A struct whose fields have different types is not in the subset.
#include <stdio.h>

int main(void) {
  struct point { int x; double y; } p;
  p.x = 1;
  p.y = 2;
  printf("%d\n", p.x + (int)p.y);
  return 0;
}
