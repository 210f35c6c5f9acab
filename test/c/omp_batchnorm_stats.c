// Batch-norm statistics on an NCHW float *** tensor with separate parallel
// loops (mean, variance, normalise); afterwards each channel of the output
// has mean ~0 and variance ~1 (checked with a tolerance), and the checksum
// (sum of |y|, double) is printed at low precision.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BN 2
#define BC 8
#define BHW 64

int main(void) {
  int fails = 0;
  float ***x = (float ***)malloc(BN * sizeof(float **));
  float ***y = (float ***)malloc(BN * sizeof(float **));
  for (int b = 0; b < BN; b++) {
    x[b] = (float **)malloc(BC * sizeof(float *));
    y[b] = (float **)malloc(BC * sizeof(float *));
    for (int c = 0; c < BC; c++) {
      x[b][c] = (float *)malloc(BHW * sizeof(float));
      y[b][c] = (float *)malloc(BHW * sizeof(float));
      for (int i = 0; i < BHW; i++)
        x[b][c][i] = (float)c + (float)((b * 7 + i * 3 + c) % 17) * 0.125f;
    }
  }
  float mean[BC];
  float var[BC];
#pragma omp parallel for
  for (int c = 0; c < BC; c++) {
    double s = 0.0;
    for (int b = 0; b < BN; b++)
      for (int i = 0; i < BHW; i++)
        s += x[b][c][i];
    mean[c] = (float)(s / (BN * BHW));
  }
#pragma omp parallel for
  for (int c = 0; c < BC; c++) {
    double s = 0.0;
    for (int b = 0; b < BN; b++)
      for (int i = 0; i < BHW; i++)
        s += (x[b][c][i] - mean[c]) * (x[b][c][i] - mean[c]);
    var[c] = (float)(s / (BN * BHW));
  }
#pragma omp parallel for collapse(2)
  for (int b = 0; b < BN; b++)
    for (int c = 0; c < BC; c++)
      for (int i = 0; i < BHW; i++)
        y[b][c][i] = (x[b][c][i] - mean[c]) / sqrtf(var[c] + 1e-5f);
  double checksum = 0.0;
  for (int c = 0; c < BC; c++) {
    double m = 0.0;
    double v = 0.0;
    for (int b = 0; b < BN; b++)
      for (int i = 0; i < BHW; i++) {
        m += y[b][c][i];
        v += (double)y[b][c][i] * y[b][c][i];
        checksum += fabs((double)y[b][c][i]);
      }
    m /= BN * BHW;
    v /= BN * BHW;
    if (fabs(m) > 1e-5 || fabs(v - 1.0) > 1e-3)
      fails++;
  }
  for (int b = 0; b < BN; b++) {
    for (int c = 0; c < BC; c++) {
      free(x[b][c]);
      free(y[b][c]);
    }
    free(x[b]);
    free(y[b]);
  }
  free(x);
  free(y);
  if (fails) {
    printf("FAIL omp_batchnorm_stats %d\n", fails);
    return 1;
  }
  printf("ok omp_batchnorm_stats %.3f\n", checksum);
  return 0;
}
