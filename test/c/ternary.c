// The conditional operator: as a value, nested, with mixed int/double arms
// (usual conversions), selecting between array elements, with side effects
// only in the selected arm, and as a function argument.
#include <stdio.h>

static int g_evals = 0;

static int count(int v) {
  g_evals++;
  return v;
}

static int sign(int x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

int main(void) {
  int fails = 0;
  int s = 0;
  for (int i = -5; i <= 5; i++)
    s += sign(i) * i; /* sum of |i| */
  if (s != 30) fails++;
  int flag = 1;
  double d = flag ? 1 : 2.5; /* int arm converted to double */
  if (d != 1.0) fails++;
  double e = !flag ? 1 : 2.5;
  if (e != 2.5) fails++;
  int a[3] = {4, 9, 2};
  int mx = a[0] > a[1] ? (a[0] > a[2] ? a[0] : a[2]) : (a[1] > a[2] ? a[1] : a[2]);
  if (mx != 9) fails++;
  g_evals = 0;
  int v = flag ? count(10) : count(20);
  if (v != 10 || g_evals != 1) fails++;
  float f = (v > 5 ? 2.0f : 3.0f) * 1.5f;
  if (f != 3.0f) fails++;
  unsigned int u = flag ? 7u : 0u;
  if (u != 7u) fails++;
  if (fails) {
    printf("FAIL ternary %d\n", fails);
    return 1;
  }
  printf("ok ternary %d %d %.1f\n", s, mx, f);
  return 0;
}
