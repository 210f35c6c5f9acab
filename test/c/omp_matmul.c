// Matrix multiply C = A * B on float ** arrays, parallel over rows of C with
// the k loop sequential inside; integer-valued data makes the result exact,
// checked against a closed form.
#include <stdio.h>
#include <stdlib.h>

#define NN 96

static float **alloc_2d(int n, int m) {
  float **a = (float **)malloc(n * sizeof(float *));
  for (int i = 0; i < n; i++)
    a[i] = (float *)malloc(m * sizeof(float));
  return a;
}

static void free_2d(float **a, int n) {
  for (int i = 0; i < n; i++)
    free(a[i]);
  free(a);
}

int main(void) {
  int fails = 0;
  float **A = alloc_2d(NN, NN);
  float **B = alloc_2d(NN, NN);
  float **C = alloc_2d(NN, NN);
  for (int i = 0; i < NN; i++)
    for (int j = 0; j < NN; j++) {
      A[i][j] = (float)i;       /* rows constant */
      B[i][j] = (float)(j % 3); /* columns 0,1,2 repeating */
    }
#pragma omp parallel for schedule(static)
  for (int i = 0; i < NN; i++)
    for (int j = 0; j < NN; j++) {
      float acc = 0.0f;
      for (int k = 0; k < NN; k++)
        acc += A[i][k] * B[k][j];
      C[i][j] = acc;
    }
  /* C[i][j] = sum_k i * (j % 3) = NN * i * (j % 3) */
  double s = 0.0;
  for (int i = 0; i < NN; i++)
    for (int j = 0; j < NN; j++) {
      if (C[i][j] != (float)(NN * i * (j % 3)))
        fails++;
      s += C[i][j];
    }
  free_2d(A, NN);
  free_2d(B, NN);
  free_2d(C, NN);
  if (fails) {
    printf("FAIL omp_matmul %d\n", fails);
    return 1;
  }
  printf("ok omp_matmul %.1f\n", s);
  return 0;
}
