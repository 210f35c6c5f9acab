// Object-like macros: constants, macros built from other macros, macro
// expressions needing their own parentheses, and #undef / redefinition.
#include <stdio.h>

#define N 10
#define TWICE_N (2 * N)
#define SCALE 0.5
#define GREETING "macro"
#define LIMIT TWICE_N + 1 /* deliberately unparenthesised */

int main(void) {
  int sum = 0;
  for (int i = 0; i < N; i++)
    sum += i;
  /* 0 + 1 + ... + 9 = 45 */
  int fails = 0;
  if (sum != 45) fails++;
  if (TWICE_N != 20) fails++;
  if (LIMIT * 2 != 22) fails++; /* 2 * 10 + 1 * 2 */
  double half = N * SCALE;
  if (half != 5.0) fails++;
#undef N
#define N 3
  int prod = 1;
  for (int i = 1; i <= N; i++)
    prod *= i;
  if (prod != 6) fails++;
  if (fails) {
    printf("FAIL preproc_object_macros %d\n", fails);
    return 1;
  }
  printf("ok preproc_object_macros %s %d %d\n", GREETING, sum, prod);
  return 0;
}
