// Local fixed-size 1-D arrays: uninitialised then filled, full initialiser,
// partial initialiser ({0} and short lists), size from the initialiser,
// passing a local array to a function.
#include <stdio.h>

static int sum(int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int main(void) {
  int a[10];
  for (int i = 0; i < 10; i++)
    a[i] = i * i;
  int b[5] = {1, 2, 3, 4, 5};
  double z[8] = {0};
  float p[6] = {1.0f, 2.0f}; /* remaining four are zero */
  int d[] = {7, 7, 7};
  int fails = 0;
  if (sum(a, 10) != 285) fails++;
  if (sum(b, 5) != 15) fails++;
  double zs = 0.0;
  for (int i = 0; i < 8; i++)
    zs += z[i];
  if (zs != 0.0) fails++;
  float ps = 0.0f;
  for (int i = 0; i < 6; i++)
    ps += p[i];
  if (ps != 3.0f) fails++;
  if (sizeof(d) / sizeof(d[0]) != 3 || sum(d, 3) != 21) fails++;
  /* in-place reverse */
  for (int i = 0; i < 5 / 2; i++) {
    int t = b[i];
    b[i] = b[4 - i];
    b[4 - i] = t;
  }
  if (b[0] != 5 || b[2] != 3 || b[4] != 1) fails++;
  if (fails) {
    printf("FAIL local_array_1d %d\n", fails);
    return 1;
  }
  printf("ok local_array_1d %d %d\n", sum(a, 10), b[0]);
  return 0;
}
