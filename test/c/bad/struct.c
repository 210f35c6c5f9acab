// EXPECT-ERROR: 6:3: unsupported C construct: struct
// A struct with a pointer field is not in the subset (arithmetic fields and arrays of them are).
#include <stdio.h>

int main(void) {
  struct vec { int n; double *data; } v;
  double x[2] = {1, 2};
  v.n = 2;
  v.data = x;
  printf("%d\n", v.n + (int)v.data[1]);
  return 0;
}
