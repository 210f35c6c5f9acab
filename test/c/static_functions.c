// static functions (private helpers calling each other), a static global,
// functions defined after a prototype, void functions.
#include <stdio.h>

static int g_calls = 0;

static int square(int x);   /* prototype, defined below */

static int sum_of_squares(int n) {
  int s = 0;
  for (int i = 1; i <= n; i++)
    s += square(i);
  return s;
}

static int square(int x) {
  g_calls++;
  return x * x;
}

static void reset(void) { g_calls = 0; }

int main(void) {
  int s = sum_of_squares(10);
  int calls = g_calls;
  reset();
  int t = sum_of_squares(3);
  if (s != 385 || calls != 10 || t != 14 || g_calls != 3) {
    printf("FAIL static_functions %d %d %d %d\n", s, calls, t, g_calls);
    return 1;
  }
  printf("ok static_functions %d %d\n", s, t);
  return 0;
}
