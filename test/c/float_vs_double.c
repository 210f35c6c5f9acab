// float arithmetic must stay in single precision (f32) and double in double
// precision: accumulations whose results differ between the two.
#include <stdio.h>

int main(void) {
  int fails = 0;
  float fs = 0.0f;
  double ds = 0.0;
  for (int i = 0; i < 1000; i++) {
    fs += 0.1f;
    ds += 0.1;
  }
  /* float sum of 0.1f drifts visibly, the double one does not */
  if (fs == 100.0f) fails++;
  if (ds < 99.9999999 || ds > 100.0000001) fails++;
  float big = 100000000.0f;
  float small = 1.0f;
  float fr = (big + small) - big; /* 1 is lost in float */
  double dr = ((double)big + small) - big;
  if (fr != 0.0f || dr != 1.0) fails++;
  float third = 1.0f / 3.0f;
  double dthird = 1.0 / 3.0;
  if ((double)third == dthird) fails++;
  /* float products are rounded to float at each step */
  float p = 1.0f;
  for (int i = 0; i < 30; i++)
    p *= 1.1f;
  double pd = 1.0;
  for (int i = 0; i < 30; i++)
    pd *= 1.1;
  if ((double)p == pd) fails++;
  if (fails) {
    printf("FAIL float_vs_double %d\n", fails);
    return 1;
  }
  printf("ok float_vs_double %.4f %.4f %.3f %.3f\n", fs, ds, p, pd);
  return 0;
}
