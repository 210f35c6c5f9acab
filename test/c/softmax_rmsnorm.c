// The transformer's building blocks, sequential: softmax (max-subtracted,
// expf) sums to 1 and is invariant under a shift of its input; rmsnorm of a
// constant vector returns the weights; RoPE rotation (cosf/sinf/powf)
// preserves the norm of each pair.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static void softmax(float *x, int n) {
  float mx = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > mx)
      mx = x[i];
  float sum = 0.0f;
  for (int i = 0; i < n; i++) {
    x[i] = expf(x[i] - mx);
    sum += x[i];
  }
  for (int i = 0; i < n; i++)
    x[i] /= sum;
}

static void rmsnorm(float *o, float *x, float *w, int n) {
  float ss = 0.0f;
  for (int i = 0; i < n; i++)
    ss += x[i] * x[i];
  ss = ss / n + 1e-5f;
  float r = 1.0f / sqrtf(ss);
  for (int i = 0; i < n; i++)
    o[i] = w[i] * (r * x[i]);
}

int main(void) {
  int fails = 0;
  int n = 64;
  float *a = (float *)malloc(n * sizeof(float));
  float *b = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    a[i] = sinf((float)i * 0.3f) * 4.0f;
    b[i] = a[i] + 100.0f; /* shifted copy */
  }
  softmax(a, n);
  softmax(b, n);
  float sa = 0.0f;
  float worst = 0.0f;
  for (int i = 0; i < n; i++) {
    sa += a[i];
    worst = fmaxf(worst, fabsf(a[i] - b[i]));
  }
  if (fabsf(sa - 1.0f) > 1e-5f || worst > 1e-6f) fails++;
  float *w = (float *)malloc(n * sizeof(float));
  float *o = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) {
    a[i] = 3.0f;
    w[i] = 0.5f + (float)i / (float)n;
  }
  rmsnorm(o, a, w, n);
  float err = 0.0f;
  for (int i = 0; i < n; i++)
    err = fmaxf(err, fabsf(o[i] - w[i]));
  if (err > 1e-5f) fails++;
  /* RoPE on pairs */
  int head = 16;
  float nerr = 0.0f;
  for (int i = 0; i < n; i += 2) {
    float freq = 1.0f / powf(10000.0f, (float)(i % head) / (float)head);
    float ang = 5.0f * freq;
    float c = cosf(ang);
    float s = sinf(ang);
    float x0 = w[i];
    float x1 = w[i + 1];
    float y0 = x0 * c - x1 * s;
    float y1 = x0 * s + x1 * c;
    nerr = fmaxf(nerr, fabsf((y0 * y0 + y1 * y1) - (x0 * x0 + x1 * x1)));
  }
  if (nerr > 1e-5f) fails++;
  free(a);
  free(b);
  free(w);
  free(o);
  if (fails) {
    printf("FAIL softmax_rmsnorm %d %g %g %g\n", fails, (double)worst, (double)err, (double)nerr);
    return 1;
  }
  printf("ok softmax_rmsnorm %.4f\n", (double)sa);
  return 0;
}
