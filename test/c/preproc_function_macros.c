// Function-like macros: arithmetic helpers, nested macro calls, arguments that
// are expressions, multi-line macros with backslashes, stringification and
// token pasting into identifiers.
#include <stdio.h>

#define SQR(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define CLAMP(v, lo, hi) MIN(MAX((v), (lo)), (hi))
#define IDX(i, j, ncols) ((i) * (ncols) + (j))
#define AXPY(a, x, y)                                                          \
  ((a) * (x) +                                                                 \
   (y))
#define STR(x) #x
#define VAR(name, k) name##k

int main(void) {
  int fails = 0;
  int a = 3;
  if (SQR(a + 1) != 16) fails++;
  if (MAX(a, 7) != 7) fails++;
  if (MIN(-a, 2) != -3) fails++;
  if (CLAMP(15, 0, 10) != 10) fails++;
  if (CLAMP(-4, 0, 10) != 0) fails++;
  if (CLAMP(4, 0, 10) != 4) fails++;
  if (IDX(2, 3, 5) != 13) fails++;
  double r = AXPY(2.0, 1.5, 0.25);
  if (r != 3.25) fails++;
  int VAR(v, 1) = 11;
  int VAR(v, 2) = 31;
  if (v1 + v2 != 42) fails++;
  /* square of 1..5 via the macro in a loop */
  int s = 0;
  for (int i = 1; i <= 5; i++)
    s += SQR(i);
  if (s != 55) fails++;
  if (fails) {
    printf("FAIL preproc_function_macros %d\n", fails);
    return 1;
  }
  printf("ok preproc_function_macros %s %d\n", STR(SQR), s);
  return 0;
}
