// && and || evaluate their right operand only when needed: side effects in
// the right operand (counter increments, a guarded division, a guarded array
// access) must not happen when the left operand decides.
#include <stdio.h>

static int g_calls = 0;

static int touch(int v) {
  g_calls++;
  return v;
}

int main(void) {
  int fails = 0;
  int zero = 0;
  int x = 10;
  if (zero != 0 && x / zero > 1) fails++;    /* division must not run */
  if (!(zero == 0 || x / zero > 1)) fails++; /* division must not run */
  g_calls = 0;
  int r1 = touch(0) && touch(1); /* right side skipped */
  int r2 = touch(1) || touch(1); /* right side skipped */
  int r3 = touch(1) && touch(0); /* both */
  int r4 = touch(0) || touch(5); /* both; result is 1, not 5 */
  if (r1 != 0 || r2 != 1 || r3 != 0 || r4 != 1) fails++;
  if (g_calls != 6) fails++;
  int arr[4] = {1, 2, 3, 4};
  int found = 0;
  for (int i = 0; i < 6; i++)
    if (i < 4 && arr[i] == 3) /* arr[i] never read out of bounds */
      found = i;
  if (found != 2) fails++;
  int n = 0;
  int k = 0;
  /* post-increment inside the right operand */
  for (int i = 0; i < 10; i++)
    if (i % 2 == 0 || n++ > 100)
      k++;
  if (k != 5 || n != 5) fails++;
  /* ! of ints and nested && / || */
  int t = !0 && (!5 || !!7);
  if (t != 1) fails++;
  if (fails) {
    printf("FAIL short_circuit %d\n", fails);
    return 1;
  }
  printf("ok short_circuit %d %d %d\n", g_calls, k, n);
  return 0;
}
