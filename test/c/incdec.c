// Pre/post increment and decrement on locals, globals, array elements,
// pointer-of-pointer elements and floats; the value of each expression.
#include <stdio.h>
#include <stdlib.h>

int g = 10;

int main(void) {
  int fails = 0;
  int i = 5;
  int a = i++; /* a = 5, i = 6 */
  int b = ++i; /* b = 7, i = 7 */
  int c = i--; /* c = 7, i = 6 */
  int d = --i; /* d = 5, i = 5 */
  if (a != 5 || b != 7 || c != 7 || d != 5 || i != 5) fails++;
  int arr[3] = {0, 10, 20};
  arr[1]++;
  ++arr[2];
  arr[0]--;
  int e = arr[1]++ + ++arr[2]; /* 11 + 22 */
  if (arr[0] != -1 || arr[1] != 12 || arr[2] != 22 || e != 33) fails++;
  g++;
  --g;
  int h = g++;
  if (h != 10 || g != 11) fails++;
  double x = 1.5;
  x++;
  double y = x--;
  if (x != 1.5 || y != 2.5) fails++;
  float f = 0.25f;
  ++f;
  if (f != 1.25f) fails++;
  long **m = (long **)malloc(2 * sizeof(long *));
  m[1] = (long *)malloc(2 * sizeof(long));
  m[1][1] = 41;
  long old = m[1][1]++;
  if (old != 41 || m[1][1] != 42) fails++;
  long got = m[1][1];
  free(m[1]);
  free(m);
  unsigned int u = 0u;
  u--;
  if (u != 4294967295u) fails++;
  char ch = 'y';
  ch++;
  if (ch != 'z') fails++;
  if (fails) {
    printf("FAIL incdec %d\n", fails);
    return 1;
  }
  printf("ok incdec %d %d %ld\n", e, g, got);
  return 0;
}
