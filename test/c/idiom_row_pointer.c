/* Pointers to rows and elements of multi-dimensional arrays, as hand-tuned loops take
   them: `double *row = a[i]`, `const double *src = &b[i][0]`, `&a[i][m / 2]` and a pointer
   moved from it by arithmetic, inside parallel loops over a global and a local 2-D array
   and a 3-D one; `&x[k]` of a 1-D array. */
#include <stdio.h>

#define R 48
#define M 40

static double a[R][M];

int main(void) {
  double b[R][M], sums[R], cube[4][6][8], x[32];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < M; j++) {
      a[i][j] = i + 0.5 * j;
      b[i][j] = i - j;
    }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 8; k++)
        cube[i][j][k] = i * 100 + j * 10 + k;
  for (int k = 0; k < 32; k++)
    x[k] = k;
#pragma omp parallel for
  for (int i = 0; i < R; i++) {
    double *row = a[i];
    const double *src = &b[i][0];
    for (int j = 0; j < M; j++)
      row[j] += src[j];
    double *half = &a[i][M / 2];
    const double *next = half + 1;
    double s = 0;
    for (int j = 0; j < M / 2 - 1; j++)
      s += half[j] + *(next + j);
    sums[i] = s;
  }
  double plane = 0;
#pragma omp parallel for reduction(+: plane)
  for (int j = 0; j < 6; j++) {
    double *line = cube[3][j];
    for (int k = 0; k < 8; k++)
      plane += line[k];
  }
  double *tail = &x[20];
  tail[3] += 1000;

  /* a[i][j] is now i + 0.5 j + i - j = 2i - 0.5 j */
  double expect_sums = 0, total = 0;
  for (int i = 0; i < R; i++) {
    total += sums[i];
    for (int j = M / 2; j < M - 1; j++)
      expect_sums += (2 * i - 0.5 * j) + (2 * i - 0.5 * (j + 1));
  }
  double expect_plane = 0;
  for (int j = 0; j < 6; j++)
    for (int k = 0; k < 8; k++)
      expect_plane += 300 + j * 10 + k;
  if (total != expect_sums || plane != expect_plane || x[23] != 1023 || a[5][7] != 6.5) {
    printf("FAIL idiom_row_pointer %g %g %g %g\n", total, plane, x[23], a[5][7]);
    return 1;
  }
  printf("ok idiom_row_pointer %g %g\n", total, plane);
  return 0;
}
