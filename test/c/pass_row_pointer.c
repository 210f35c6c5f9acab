// Passing rows and planes of pointer-of-pointer arrays to functions that take
// lower-rank pointers (a[i] as float *, c[k] as float **), and writing
// through them.
#include <stdio.h>
#include <stdlib.h>

static void scale_row(float *row, int n, float s) {
  for (int j = 0; j < n; j++)
    row[j] *= s;
}

static float sum_row(float *row, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += row[j];
  return s;
}

static float sum_plane(float **plane, int r, int c) {
  float s = 0.0f;
  for (int i = 0; i < r; i++)
    s += sum_row(plane[i], c);
  return s;
}

int main(void) {
  int fails = 0;
  int r = 4, c = 5;
  float ***cube = (float ***)malloc(2 * sizeof(float **));
  for (int k = 0; k < 2; k++) {
    cube[k] = (float **)malloc(r * sizeof(float *));
    for (int i = 0; i < r; i++) {
      cube[k][i] = (float *)malloc(c * sizeof(float));
      for (int j = 0; j < c; j++)
        cube[k][i][j] = 1.0f;
    }
  }
  for (int i = 0; i < r; i++)
    scale_row(cube[1][i], c, (float)(i + 1));
  float p0 = sum_plane(cube[0], r, c);
  float p1 = sum_plane(cube[1], r, c);
  if (p0 != 20.0f || p1 != 50.0f) fails++;
  if (sum_row(cube[1][3], c) != 20.0f) fails++;
  for (int k = 0; k < 2; k++) {
    for (int i = 0; i < r; i++)
      free(cube[k][i]);
    free(cube[k]);
  }
  free(cube);
  if (fails) {
    printf("FAIL pass_row_pointer %d\n", fails);
    return 1;
  }
  printf("ok pass_row_pointer %.1f %.1f\n", p0, p1);
  return 0;
}
