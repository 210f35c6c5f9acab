// EXPECT-ERROR: 7:1: unsupported C construct: omp declare variant with a user condition known only at run time (write an if around the two constructs)
// A variant is chosen where the call is compiled: a condition on a variable is not known then.
#include <stdio.h>

static int use_fast = 1;
static int fast(int x) { return x + 1; }
#pragma omp declare variant(fast) match(user = {condition(use_fast)})
static int slow(int x) { return x + 1; }

int main(void) {
  printf("%d\n", slow(1));
  return 0;
}
