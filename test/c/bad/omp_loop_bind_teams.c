// EXPECT-ERROR: 7:1: unsupported C construct: omp loop bind(teams)
// A loop bound to a league of teams: there are no teams on the host.
#include <stdio.h>

int main(void) {
  int a[8];
#pragma omp loop bind(teams)
  for (int i = 0; i < 8; i++)
    a[i] = i;
  printf("%d\n", a[7]);
  return 0;
}
