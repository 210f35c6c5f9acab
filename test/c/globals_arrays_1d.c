// Global 1-D arrays: full initialiser, partial initialiser (rest zero), size
// deduced from the initialiser, uninitialised (zero), const table.
#include <stdio.h>

int g_primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
double g_partial[6] = {1.5, 2.5};
float g_deduced[] = {0.5f, 1.0f, 1.5f, 2.0f};
long g_zeros[16];
const int g_table[5] = {10, 20, 30, 40, 50};

static int sum_primes(void) {
  int s = 0;
  for (int i = 0; i < 8; i++)
    s += g_primes[i];
  return s;
}

int main(void) {
  int fails = 0;
  if (sum_primes() != 77) fails++;
  double p = 0.0;
  for (int i = 0; i < 6; i++)
    p += g_partial[i];
  if (p != 4.0) fails++;
  int ndeduced = (int)(sizeof(g_deduced) / sizeof(g_deduced[0]));
  if (ndeduced != 4) fails++;
  float f = 0.0f;
  for (int i = 0; i < ndeduced; i++)
    f += g_deduced[i];
  if (f != 5.0f) fails++;
  for (int i = 0; i < 16; i++)
    if (g_zeros[i] != 0) fails++;
  for (int i = 0; i < 16; i++)
    g_zeros[i] = (long)i * g_table[i % 5];
  long z = 0;
  for (int i = 0; i < 16; i++)
    z += g_zeros[i];
  /* sum i * 10 * (i % 5 + 1) for i < 16 */
  long expected = 0;
  for (int i = 0; i < 16; i++)
    expected += (long)i * 10 * (i % 5 + 1);
  if (z != expected || z != 3600) fails++;
  g_primes[0] = 23;
  if (sum_primes() != 98) fails++;
  if (fails) {
    printf("FAIL globals_arrays_1d %d\n", fails);
    return 1;
  }
  printf("ok globals_arrays_1d %ld\n", z);
  return 0;
}
