// EXPECT-ERROR: 11:24: unsupported C construct: a row of a multi-dimensional array used as a pointer value (index it where it is, or pass the array and the row)
// A row of a 2-D array is a pointer where it is indexed, not one passed to a function.
#include <stdio.h>

static double first(const double *p) { return p[0]; }

int main(void) {
  double m[3][4];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) m[i][j] = i + j;
  printf("%g\n", first(m[1]));
  return 0;
}
