// sizeof of types, of expressions (not evaluated), of local fixed arrays and
// their elements, of pointer types, used in malloc arithmetic.
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int fails = 0;
  double arr[12];
  int grid[3][5];
  float *p = (float *)malloc(10 * sizeof(float));
  int counter = 0;
  size_t s_expr = sizeof(counter++); /* not evaluated */
  if (counter != 0 || s_expr != sizeof(int)) fails++;
  if (sizeof(arr) != 96 || sizeof(arr) / sizeof(arr[0]) != 12) fails++;
  if (sizeof(grid) != 60 || sizeof(grid[0]) != 20 || sizeof grid[0][0] != 4) fails++;
  if (sizeof(p) != 8 || sizeof(*p) != 4 || sizeof(float **) != 8) fails++;
  if (sizeof(char) + sizeof(short) + sizeof(int) + sizeof(long) != 15) fails++;
  if (sizeof(float) * 2 != sizeof(double)) fails++;
  if (sizeof(1.0f) != 4 || sizeof(1.0) != 8 || sizeof('a') != 4 || sizeof(1L) != 8) fails++;
  for (int i = 0; i < 10; i++)
    p[i] = (float)i;
  float s = 0.0f;
  for (int i = 0; i < (int)(10 * sizeof(float) / sizeof(p[0])); i++)
    s += p[i];
  free(p);
  if (s != 45.0f) fails++;
  if (fails) {
    printf("FAIL sizeof_ops %d\n", fails);
    return 1;
  }
  printf("ok sizeof_ops %zu %zu %zu\n", sizeof(arr), sizeof(grid), sizeof(long));
  return 0;
}
