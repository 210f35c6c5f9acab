// Compound assignments on float and double (+= -= *= /=), accumulation in a
// loop, and float += double (computed in double, rounded to float).
#include <stdio.h>

int main(void) {
  int fails = 0;
  float f = 1.0f;
  f += 2.5f;   /* 3.5 */
  f -= 0.5f;   /* 3 */
  f *= 4.0f;   /* 12 */
  f /= 8.0f;   /* 1.5 */
  if (f != 1.5f) fails++;
  double d = 10.0;
  for (int i = 0; i < 10; i++)
    d -= 0.5; /* 5.0, exact */
  if (d != 5.0) fails++;
  double acc[4] = {1.0, 1.0, 1.0, 1.0};
  for (int i = 0; i < 4; i++) {
    acc[i] *= (i + 1);
    acc[i] /= 2.0;
    acc[i] += i;
  }
  /* 0.5+0, 1+1, 1.5+2, 2+3 */
  if (acc[0] != 0.5 || acc[1] != 2.0 || acc[2] != 3.5 || acc[3] != 5.0) fails++;
  float g = 0.0f;
  g += 0.1; /* double addition, result rounded to float */
  if (g != 0.1f) fails++;
  float h = 16777216.0f; /* 2^24 */
  h += 1.0f;             /* not representable: stays 2^24 */
  if (h != 16777216.0f) fails++;
  float k = 3.0f;
  k *= 2; /* int operand */
  if (k != 6.0f) fails++;
  if (fails) {
    printf("FAIL compound_assign_float %d\n", fails);
    return 1;
  }
  printf("ok compound_assign_float %.2f %.2f %.1f\n", f, d, h);
  return 0;
}
