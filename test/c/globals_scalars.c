// Global scalars of several types with and without initialisers, read and
// written from several functions; zero-initialised globals.
#include <stdio.h>

int g_count = 5;
long g_big = 10000000000L;
float g_scale = 0.25f;
double g_offset = -1.5;
char g_letter = 'A';
unsigned int g_mask = 0xF0u;
int g_zero;          /* tentative definition: zero */
double g_dzero;      /* zero */

static void bump(int by) { g_count += by; }

static double apply(double x) { return x * g_scale + g_offset; }

int main(void) {
  int fails = 0;
  if (g_zero != 0 || g_dzero != 0.0) fails++;
  bump(3);
  bump(-1);
  if (g_count != 7) fails++;
  if (apply(10.0) != 1.0) fails++;
  g_scale = 2.0f;
  if (apply(1.0) != 0.5) fails++;
  g_big = g_big / 1000 + g_count;
  if (g_big != 10000007L) fails++;
  g_letter = g_letter + 2;
  if (g_letter != 'C') fails++;
  if ((g_mask | 0x0Fu) != 0xFFu) fails++;
  g_zero = g_count * 6;
  if (fails) {
    printf("FAIL globals_scalars %d\n", fails);
    return 1;
  }
  printf("ok globals_scalars %d %ld %c\n", g_zero, g_big, g_letter);
  return 0;
}
