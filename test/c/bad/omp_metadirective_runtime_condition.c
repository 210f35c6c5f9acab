// EXPECT-ERROR: 11:1: unsupported C construct: omp metadirective with a user condition known only at run time (write an if around the two constructs)
// A metadirective is chosen when the program is compiled: a condition on a variable is
// not known then.
#include <stdio.h>

int main(int argc, char **argv) {
  (void)argv;
  int big = argc > 1;
  int a[8];
  (void)big;
#pragma omp metadirective when(user = {condition(big)} : parallel for) default(for)
  for (int i = 0; i < 8; i++)
    a[i] = i;
  printf("%d\n", a[7]);
  return 0;
}
