// for loops whose induction variable is declared before the loop and
// initialised by assignment; its value after the loop (exit value), reuse
// across loops, and a loop with an empty init.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int i;
  int s = 0;
  for (i = 0; i < 10; i++)
    s += i;
  if (i != 10 || s != 45) fails++; /* exit value */
  for (i = 20; i > 15; i--)
    s += i;
  if (i != 15 || s != 135) fails++;
  int j = 3;
  for (; j < 7; j++) /* empty init */
    s++;
  if (j != 7 || s != 139) fails++;
  long k;
  for (k = 1; k <= 1000; k *= 10) /* exit value 10000 */
    s++;
  if (k != 10000 || s != 143) fails++;
  int found = -1;
  int x;
  for (x = 0; x < 100; x++)
    if (x * x > 50)
      break;
  found = x;
  if (found != 8) fails++;
  if (fails) {
    printf("FAIL for_assign_init %d\n", fails);
    return 1;
  }
  printf("ok for_assign_init %d %d %ld %d\n", i, s, k, found);
  return 0;
}
