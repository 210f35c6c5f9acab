// atoi on string literals (sign, leading blanks, trailing junk) and exit()
// called from a helper function: the program ends through exit with the
// status that helper is given, never reaching the end of main.
#include <stdio.h>
#include <stdlib.h>

static void finish(int fails, int value) {
  if (fails) {
    printf("FAIL atoi_exit %d\n", fails);
    exit(1);
  }
  printf("ok atoi_exit %d\n", value);
  exit(0);
}

int main(void) {
  int fails = 0;
  int a = atoi("1234");
  int b = atoi("-56");
  int c = atoi("   78xyz");
  int d = atoi("+9");
  if (a != 1234 || b != -56 || c != 78 || d != 9) fails++;
  int total = a + b + c + d;
  finish(fails, total);
  printf("FAIL atoi_exit unreachable\n");
  return 1;
}
