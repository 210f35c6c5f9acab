// C's usual arithmetic conversions: int with unsigned (becomes unsigned),
// int with long, int with float/double, char and short promotion to int,
// float with double, and comparison results.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int neg = -1;
  unsigned int one = 1u;
  if (neg < one) fails++; /* -1 converts to UINT_MAX: not less */
  if ((long)neg >= (long)one) fails++;
  long lneg = -1L;
  if (!(lneg < one)) fails++; /* unsigned int fits in long: compares as long */
  int big = 2000000000;
  long prod = (long)big * 3; /* done in long */
  if (prod != 6000000000L) fails++;
  int i = 3;
  double dv = i / 2 + i / 2.0; /* 1 + 1.5 */
  if (dv != 2.5) fails++;
  float fv = i * 0.5f; /* float */
  if (fv != 1.5f) fails++;
  char c1 = 100;
  char c2 = 100;
  int ci = c1 + c2; /* promoted: 200, no char overflow */
  if (ci != 200) fails++;
  short s1 = -32000;
  short s2 = -32000;
  int si = s1 + s2;
  if (si != -64000) fails++;
  float f = 0.1f;
  double d = f * 10.0; /* f widened to double */
  if (d == 1.0) fails++; /* 0.1f is not 0.1 */
  int cmp = (3 > 2) + (2 > 3) + (1.5 < 2) + (one == 1);
  if (cmp != 3) fails++;
  unsigned char uc = 255;
  int promoted = uc * uc; /* promoted to int: no 8-bit wrap */
  if (promoted != 65025) fails++;
  unsigned short us = 65535;
  unsigned int uprod = us * 2u; /* int operand meets unsigned: unsigned */
  if (uprod != 131070u) fails++;
  if (fails) {
    printf("FAIL usual_conversions %d\n", fails);
    return 1;
  }
  printf("ok usual_conversions %ld %.2f %d %d\n", prod, dv, ci, si);
  return 0;
}
