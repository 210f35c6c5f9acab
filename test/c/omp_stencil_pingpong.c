// A 1-D three-point stencil over T time steps with two buffers swapped by
// pointer each step, parallel over space, compared bit-for-bit with the same
// computation done sequentially (each point's arithmetic is identical).
#include <stdio.h>
#include <stdlib.h>

#define NX 2048
#define T 40

static void run(double *u0, double *u1, int parallel) {
  double *cur = u0;
  double *nxt = u1;
  for (int t = 0; t < T; t++) {
    if (parallel) {
#pragma omp parallel for schedule(static)
      for (int i = 1; i < NX - 1; i++)
        nxt[i] = 0.25 * cur[i - 1] + 0.5 * cur[i] + 0.25 * cur[i + 1];
    } else {
      for (int i = 1; i < NX - 1; i++)
        nxt[i] = 0.25 * cur[i - 1] + 0.5 * cur[i] + 0.25 * cur[i + 1];
    }
    nxt[0] = cur[0];
    nxt[NX - 1] = cur[NX - 1];
    double *tmp = cur;
    cur = nxt;
    nxt = tmp;
  }
}

int main(void) {
  int fails = 0;
  double *a0 = (double *)malloc(NX * sizeof(double));
  double *a1 = (double *)malloc(NX * sizeof(double));
  double *b0 = (double *)malloc(NX * sizeof(double));
  double *b1 = (double *)malloc(NX * sizeof(double));
  for (int i = 0; i < NX; i++) {
    a0[i] = (i % 64 < 32) ? 1.0 : 0.0;
    b0[i] = a0[i];
    a1[i] = 0.0;
    b1[i] = 0.0;
  }
  run(a0, a1, 1);
  run(b0, b1, 0);
  /* T is even: the result is back in the first buffer */
  double s = 0.0;
  for (int i = 0; i < NX; i++) {
    if (a0[i] != b0[i])
      fails++;
    s += a0[i];
  }
  free(a0);
  free(a1);
  free(b0);
  free(b1);
  if (fails) {
    printf("FAIL omp_stencil_pingpong %d\n", fails);
    return 1;
  }
  printf("ok omp_stencil_pingpong %.6f\n", s);
  return 0;
}
