// EXPECT-ERROR: 10:7: break before the end of a switch case
// A break in the middle of a case (not its last statement) is not supported.
#include <stdio.h>

int main(void) {
  int k = 2;
  switch (k) {
  case 2:
    if (k > 1)
      break;
    printf("two\n");
    break;
  default:
    printf("other\n");
    break;
  }
  return 0;
}
