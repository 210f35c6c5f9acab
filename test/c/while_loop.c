// while loops: Collatz step counts, integer square root by bisection, digit
// sums, a loop that never runs, and while with a compound condition.
#include <stdio.h>

static int collatz_steps(long n) {
  int steps = 0;
  while (n != 1) {
    if (n % 2 == 0)
      n = n / 2;
    else
      n = 3 * n + 1;
    steps++;
  }
  return steps;
}

static long isqrt(long x) {
  long lo = 0;
  long hi = x + 1;
  while (hi - lo > 1) {
    long mid = (lo + hi) / 2;
    if (mid * mid <= x)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

int main(void) {
  int fails = 0;
  if (collatz_steps(27) != 111 || collatz_steps(1) != 0) fails++;
  int maxsteps = 0;
  int arg = 0;
  int n = 1;
  while (n < 1000) {
    int st = collatz_steps(n);
    if (st > maxsteps) {
      maxsteps = st;
      arg = n;
    }
    n++;
  }
  if (arg != 871 || maxsteps != 178) fails++;
  if (isqrt(1000000) != 1000 || isqrt(999999) != 999 || isqrt(2) != 1) fails++;
  int x = 987654;
  int digits = 0;
  while (x > 0) {
    digits += x % 10;
    x /= 10;
  }
  if (digits != 39) fails++;
  int never = 0;
  while (never > 0)
    never--;
  int i = 0;
  int j = 100;
  while (i < j && i * i < 500) {
    i++;
    j--;
  }
  if (i != 23 || j != 77) fails++;
  if (fails) {
    printf("FAIL while_loop %d\n", fails);
    return 1;
  }
  printf("ok while_loop %d %d %d\n", arg, maxsteps, digits);
  return 0;
}
