// return from inside loops and nested ifs, multiple return points, return in
// a void function, and a function whose last statement is not a return path.
#include <stdio.h>

static int find(int *a, int n, int key) {
  for (int i = 0; i < n; i++)
    if (a[i] == key)
      return i;
  return -1;
}

static int find2d(int a[4][4], int key) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      if (a[i][j] == key)
        return i * 10 + j;
    }
  return -1;
}

static int g_writes = 0;

static void write_until(int *out, int n, int stop) {
  for (int i = 0; i < n; i++) {
    if (i == stop)
      return;
    out[i] = i;
    g_writes++;
  }
}

static double safe_div(double a, double b) {
  if (b == 0.0) {
    if (a >= 0.0)
      return 1e300;
    return -1e300;
  }
  return a / b;
}

static int first_even_square(int lo, int hi) {
  int i = lo;
  while (1) {
    if (i > hi)
      return -1;
    if ((i * i) % 2 == 0)
      return i * i;
    i++;
  }
}

int main(void) {
  int fails = 0;
  int a[6] = {5, 3, 8, 1, 9, 2};
  if (find(a, 6, 8) != 2 || find(a, 6, 7) != -1 || find(a, 6, 2) != 5) fails++;
  int m[4][4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      m[i][j] = i * 4 + j;
  if (find2d(m, 9) != 21 || find2d(m, 99) != -1) fails++;
  int out[10];
  write_until(out, 10, 4);
  if (g_writes != 4 || out[3] != 3) fails++;
  if (safe_div(1.0, 0.0) != 1e300 || safe_div(-1.0, 0.0) != -1e300 || safe_div(3.0, 2.0) != 1.5)
    fails++;
  if (first_even_square(3, 10) != 16 || first_even_square(5, 5) != -1) fails++;
  if (fails) {
    printf("FAIL early_return %d\n", fails);
    return 1;
  }
  printf("ok early_return %d %d %d\n", find(a, 6, 9), find2d(m, 9), g_writes);
  return 0;
}
