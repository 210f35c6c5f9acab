// User function calls: many parameters of mixed types, pass by value (callee
// changes do not leak), arrays passed and modified in place, nested calls as
// arguments, functions returning float / double / long / unsigned, void
// functions with no parameters.
#include <stdio.h>

static int g_ticks = 0;

static void tick(void) { g_ticks++; }

static double mix(int a, long b, float c, double d, unsigned int e, char f) {
  return a + b + c + d + e + f;
}

static int no_leak(int x) {
  x = x * 100;
  return x;
}

static void fill(float *out, int n, float v) {
  for (int i = 0; i < n; i++)
    out[i] = v * i;
}

static float sumf(float *a, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

static long lmax(long a, long b) { return a > b ? a : b; }

static unsigned int umix(unsigned int a) { return a * 2654435761u; }

int main(void) {
  int fails = 0;
  double m = mix(1, 2L, 0.5f, 0.25, 4u, 'A');
  if (m != 72.75) fails++;
  int x = 3;
  int y = no_leak(x);
  if (x != 3 || y != 300) fails++;
  float buf[8];
  fill(buf, 8, 0.5f);
  if (sumf(buf, 8) != 14.0f) fails++;
  if (lmax(lmax(3, 9), lmax(-4, 7)) != 9) fails++;
  for (int i = 0; i < 5; i++)
    tick();
  if (g_ticks != 5) fails++;
  unsigned int u = umix(umix(1u));
  if (u != 2654435761u * 2654435761u) fails++;
  if (fails) {
    printf("FAIL function_calls %d\n", fails);
    return 1;
  }
  printf("ok function_calls %.2f %d %.1f %u\n", m, y, sumf(buf, 8), u);
  return 0;
}
