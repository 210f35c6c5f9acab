/* Arrays reached through pointers to arrays, as PolyBench and hand-written C allocate
   them: `double (*A)[N][M] = (double (*)[N][M]) malloc(...)`, indexed `(*A)[i][j]` and
   passed on as `*A` to a kernel taking `double A[N][M]` (one declared first and assigned
   later); flat memory indexed through a pointer to rows (`(double (*)[M]) flat`), and a
   3-D one (`(float (*)[6][8]) buf`) from calloc. */
#include <stdio.h>
#include <stdlib.h>

#define N 120
#define M 90

static void smooth(int n, int m, double A[N][M], double B[N][M]) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
}

int main(void) {
  double (*A)[N][M] = (double (*)[N][M])malloc(sizeof(double) * N * M);
  double (*B)[N][M];
  B = (double (*)[N][M])malloc(N * M * sizeof(double));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      (*A)[i][j] = (i * j) % 7;
      (*B)[i][j] = 0;
    }
  smooth(N, M, *A, *B);
  double edges = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      edges += (*B)[i][j] * ((i + j) % 3);

  int rows = 64;
  double *flat = malloc(rows * M * sizeof(double));
  double (*a)[M] = (double (*)[M])flat;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = i - 0.5 * j;
  double weighted = 0;
#pragma omp parallel for reduction(+: weighted)
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < M; j++)
      weighted += a[i][j] * (j % 4);

  float *buf = calloc(5 * 6 * 8, sizeof(float));
  float (*cube)[6][8] = (float (*)[6][8])buf;
#pragma omp parallel for
  for (int p = 0; p < 5; p++)
    for (int q = 0; q < 6; q++)
      for (int r = 0; r < 8; r++)
        cube[p][q][r] = p * 100 + q * 10 + r;
  float corner = 0;
  for (int p = 0; p < 5; p++)
    corner += cube[p][5][7] - cube[p][0][0];

  free((void *)A);
  free((void *)B);
  free(flat);
  free(buf);
  if (corner != 5 * 57.0f) {
    printf("FAIL idiom_array_pointer_casts corner=%g\n", corner);
    return 1;
  }
  printf("ok idiom_array_pointer_casts edges=%.2f weighted=%.2f\n", edges, weighted);
  return 0;
}
