// EXPECT-ERROR: 7:3: unsupported C construct: switch
// switch statements are not in the first version of the subset.
#include <stdio.h>

int main(void) {
  int k = 2;
  switch (k) {
  case 1:
    printf("one\n");
    break;
  default:
    printf("other\n");
    break;
  }
  return 0;
}
