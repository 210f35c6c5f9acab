// Declarations after statements, in nested blocks, in for-init, and shadowing
// of an outer variable inside an inner block.
#include <stdio.h>

int main(void) {
  int x = 1;
  x = x + 1;
  int y = x * 10; /* declared after a statement */
  {
    int x = 100; /* shadows the outer x */
    y += x;
    {
      double x = 0.5; /* shadows again, different type */
      y += (int)(x * 4.0);
    }
    y += x;
  }
  int z;
  z = y - x;
  for (int x = 0; x < 3; x++) /* for-init shadows too */
    z += x;
  int w = 0;
  for (int i = 0; i < 4; i++) {
    int local = i * i;
    w += local;
  }
  /* y = 20 + 100 + 2 + 100 = 222 ; z = 222 - 2 + 3 = 223 ; w = 14 */
  if (x != 2 || y != 222 || z != 223 || w != 14) {
    printf("FAIL decl_anywhere %d %d %d %d\n", x, y, z, w);
    return 1;
  }
  printf("ok decl_anywhere %d %d %d\n", y, z, w);
  return 0;
}
