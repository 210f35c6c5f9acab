// Unary operators: - (int, unsigned, float, double), + , ! (of int, of
// float, of pointer-free expressions), ~ (int, unsigned, long), and double
// negation.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int a = 5;
  if (-a != -5 || - -a != 5 || +a != 5) fails++;
  unsigned int u = 1u;
  if (-u != 4294967295u) fails++;
  float f = 2.5f;
  if (-f != -2.5f) fails++;
  double z = 0.0;
  double nz = -z;
  if (nz != 0.0) fails++; /* -0.0 == 0.0 */
  if ((!a) != 0 || (!0) != 1 || (!!a) != 1) fails++;
  if ((!f) != 0 || (!z) != 1) fails++;
  if (~a != -6 || ~u != 4294967294u || ~0L != -1L) fails++;
  int cnt = 0;
  for (int i = -3; i <= 3; i++)
    cnt += !i; /* only i == 0 */
  if (cnt != 1) fails++;
  long l = -(long)a * 1000000000L;
  if (l != -5000000000L) fails++;
  if (fails) {
    printf("FAIL unary_ops %d\n", fails);
    return 1;
  }
  printf("ok unary_ops %d %u %d %ld\n", -a, -u, ~a, l);
  return 0;
}
