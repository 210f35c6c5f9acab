// EXPECT-ERROR: 6:12: expected ';'
// A plain syntax error: clang's own diagnostic must come through.
#include <stdio.h>

int main(void) {
  int x = 1
  printf("%d\n", x);
  return 0;
}
