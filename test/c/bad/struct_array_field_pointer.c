// EXPECT-ERROR: 14:24: unsupported C construct: pointer to an array field of a struct (index the field where it is used)
// An array field of a struct is indexed where it is used; a pointer to it is not taken.
#include <stdio.h>

typedef struct {
  int n;
  double v[4];
} Vec;

static double first(const double *p) { return p[0]; }

int main(void) {
  Vec a = {4, {1, 2, 3, 4}};
  printf("%g\n", first(a.v));
  return 0;
}
