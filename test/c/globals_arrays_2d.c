// Global 2-D arrays with nested initialisers (full and partial rows) and
// without; row-major traversal and updates through functions.
#include <stdio.h>

#define R 3
#define C 4

float g_m[R][C] = {{1.0f, 2.0f, 3.0f, 4.0f},
                   {5.0f, 6.0f, 7.0f, 8.0f},
                   {9.0f, 10.0f, 11.0f, 12.0f}};
int g_partial[3][3] = {{1}, {0, 2}, {0, 0, 3}}; /* identity * diag(1,2,3) */
double g_acc[R][C];

static void scale_rows(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      g_acc[i][j] = g_m[i][j] * (i + 1);
}

int main(void) {
  int fails = 0;
  float total = 0.0f;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      total += g_m[i][j];
  if (total != 78.0f) fails++;
  int trace = 0;
  int off = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      if (i == j)
        trace += g_partial[i][j];
      else
        off += g_partial[i][j];
    }
  if (trace != 6 || off != 0) fails++;
  scale_rows();
  double acc = 0.0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      acc += g_acc[i][j];
  /* row sums 10, 26, 42 times 1, 2, 3 */
  if (acc != 10.0 + 52.0 + 126.0) fails++;
  if (fails) {
    printf("FAIL globals_arrays_2d %d\n", fails);
    return 1;
  }
  printf("ok globals_arrays_2d %.1f %d\n", acc, trace);
  return 0;
}
