// do/while: the body always runs at least once, a digit-reversal loop, a
// Newton iteration to convergence, and do { } while (0).
#include <math.h>
#include <stdio.h>

int main(void) {
  int fails = 0;
  int once = 0;
  do {
    once++;
  } while (once < 0); /* condition false at the first test */
  if (once != 1) fails++;
  int v = 12345;
  int rev = 0;
  do {
    rev = rev * 10 + v % 10;
    v /= 10;
  } while (v != 0);
  if (rev != 54321) fails++;
  double x = 2.0;
  double r = 1.0;
  int iters = 0;
  double prev;
  do {
    prev = r;
    r = 0.5 * (r + x / r);
    iters++;
  } while (fabs(r - prev) > 1e-15 && iters < 100);
  if (fabs(r * r - 2.0) > 1e-12 || iters > 10) fails++;
  int z = 0;
  do {
    z += 7;
  } while (0);
  if (z != 7) fails++;
  if (fails) {
    printf("FAIL do_while %d\n", fails);
    return 1;
  }
  printf("ok do_while %d %d %.10f\n", once, rev, r);
  return 0;
}
