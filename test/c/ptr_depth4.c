// Four levels of pointers (double ****, as in an NCHW tensor) from malloc
// loops; fill, a reduction over the innermost two dimensions, free.
#include <stdio.h>
#include <stdlib.h>

static double ****alloc_4d(int n, int c, int h, int w) {
  double ****t = (double ****)malloc(n * sizeof(double ***));
  for (int a = 0; a < n; a++) {
    t[a] = (double ***)malloc(c * sizeof(double **));
    for (int b = 0; b < c; b++) {
      t[a][b] = (double **)malloc(h * sizeof(double *));
      for (int y = 0; y < h; y++)
        t[a][b][y] = (double *)malloc(w * sizeof(double));
    }
  }
  return t;
}

int main(void) {
  int n = 2, c = 3, h = 4, w = 5;
  double ****t = alloc_4d(n, c, h, w);
  for (int a = 0; a < n; a++)
    for (int b = 0; b < c; b++)
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          t[a][b][y][x] = 1000.0 * a + 100.0 * b + 10.0 * y + x;
  double total = 0.0;
  int fails = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < c; b++) {
      double plane = 0.0;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          plane += t[a][b][y][x];
      /* 20 * (1000 a + 100 b) + 5 * 10 * 6 + 4 * 10 */
      if (plane != 20.0 * (1000.0 * a + 100.0 * b) + 340.0)
        fails++;
      total += plane;
    }
  for (int a = 0; a < n; a++) {
    for (int b = 0; b < c; b++) {
      for (int y = 0; y < h; y++)
        free(t[a][b][y]);
      free(t[a][b]);
    }
    free(t[a]);
  }
  free(t);
  if (fails || total != 20.0 * (3000.0 + 2 * 300.0) + 6 * 340.0) {
    printf("FAIL ptr_depth4 %d %f\n", fails, total);
    return 1;
  }
  printf("ok ptr_depth4 %.1f\n", total);
  return 0;
}
