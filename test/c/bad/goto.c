// EXPECT-ERROR: 8:5: unsupported C construct: goto
// goto (and its label) is not in the subset; the goto comes first.
#include <stdio.h>

int main(void) {
  int i = 0;
  if (i == 0)
    goto done;
  i = 5;
done:
  printf("%d\n", i);
  return 0;
}
