// A static local variable keeps its value across calls.
#include <stdio.h>

static int next_id(void) {
  static int counter = 100;
  counter++;
  return counter;
}

int main(void) {
  int last = 0;
  for (int i = 0; i < 5; i++)
    last = next_id();
  if (last != 105) {
    printf("FAIL static_local %d\n", last);
    return 1;
  }
  printf("ok static_local %d\n", last);
  return 0;
}
