// Recursive functions: factorial (long), Fibonacci, Euclid's gcd, Ackermann
// (small), mutual recursion (is_even / is_odd), recursive array sum, and the
// Tower of Hanoi move count; each checked against a closed form or a loop.
#include <stdio.h>

static long factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }

static int fib(int n) {
  if (n < 2)
    return n;
  return fib(n - 1) + fib(n - 2);
}

static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

static int ackermann(int m, int n) {
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ackermann(m - 1, 1);
  return ackermann(m - 1, ackermann(m, n - 1));
}

static int is_odd(int n);
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

static double rsum(double *a, int lo, int hi) {
  if (hi - lo == 1)
    return a[lo];
  int mid = (lo + hi) / 2;
  return rsum(a, lo, mid) + rsum(a, mid, hi);
}

static long hanoi(int n) {
  if (n == 0)
    return 0;
  return 2 * hanoi(n - 1) + 1;
}

int main(void) {
  int fails = 0;
  if (factorial(20) != 2432902008176640000L) fails++;
  int f0 = 0;
  int f1 = 1;
  for (int i = 0; i < 20; i++) {
    int t = f0 + f1;
    f0 = f1;
    f1 = t;
  }
  if (fib(20) != f0 || f0 != 6765) fails++;
  if (gcd(1071, 462) != 21 || gcd(17, 5) != 1) fails++;
  if (ackermann(2, 3) != 9 || ackermann(3, 3) != 61) fails++;
  if (!is_even(10) || is_odd(10) || !is_odd(7)) fails++;
  double a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i + 1;
  if (rsum(a, 0, 100) != 5050.0) fails++;
  if (hanoi(20) != (1L << 20) - 1) fails++;
  if (fails) {
    printf("FAIL recursion %d\n", fails);
    return 1;
  }
  printf("ok recursion %ld %d %d %d\n", factorial(15), fib(20), gcd(1071, 462),
         ackermann(3, 3));
  return 0;
}
