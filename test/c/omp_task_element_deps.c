// depend items on single elements of one array: a chain through a[i - 1] -> a[i], a task
// naming one element twice (in and out, and three times in at the clamped edges of a
// stencil), and tasks without depend items writing disjoint parts of one array.
#include <stdio.h>
#include <stdlib.h>

#define N 64
#define W 5
#define STEPS 20
#define ROUNDS 6

int main(void) {
  int fails = 0;
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(8 * sizeof(double));
  double *g = (double *)malloc((STEPS + 1) * W * sizeof(double));
  double *h = (double *)malloc((STEPS + 1) * W * sizeof(double));
  double *d = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    d[i] = -1.0;
  }
  a[0] = 1.0;
  for (int k = 0; k < 8; k++)
    b[k] = (double)k;
  for (int x = 0; x < W; x++)
    g[x] = 1.0 + 0.5 * x;
  for (int i = W; i < (STEPS + 1) * W; i++)
    g[i] = 0.0;
#pragma omp parallel
#pragma omp single
  {
    /* a chain: each task reads what the one before wrote */
    for (int i = 1; i < N; i++) {
#pragma omp task depend(in: a[i - 1]) depend(out: a[i])
      a[i] = a[i - 1] * 1.5 + 1.0;
    }
    /* the same element as in and out of one task, round after round */
    for (int r = 0; r < ROUNDS; r++)
      for (int k = 0; k < 8; k++) {
#pragma omp task depend(in: b[k]) depend(out: b[k])
        b[k] = b[k] * 2.0 + (double)r;
      }
    /* a stencil over steps; at the edges two in items name one element */
    for (int t = 1; t <= STEPS; t++)
      for (int x = 0; x < W; x++) {
        int p = (t - 1) * W;
        int l = x > 0 ? x - 1 : x;
        int rr = x < W - 1 ? x + 1 : x;
#pragma omp task depend(in: g[p + l], g[p + x], g[p + rr]) depend(out: g[t * W + x])
        g[t * W + x] = 0.25 * g[p + l] + 0.5 * g[p + x] + 0.25 * g[p + rr] + 0.125 * x;
      }
    /* no depend items: disjoint writes, done by the taskwait */
    for (int i = 0; i < N; i++) {
#pragma omp task
      d[i] = 2.0 * i;
    }
#pragma omp taskwait
  }
  double chain = 1.0;
  for (int i = 1; i < N; i++) {
    chain = chain * 1.5 + 1.0;
    if (a[i] != chain) fails++;
  }
  for (int k = 0; k < 8; k++) {
    double v = (double)k;
    for (int r = 0; r < ROUNDS; r++)
      v = v * 2.0 + (double)r;
    if (b[k] != v) fails++;
  }
  for (int x = 0; x < W; x++)
    h[x] = 1.0 + 0.5 * x;
  for (int t = 1; t <= STEPS; t++)
    for (int x = 0; x < W; x++) {
      int p = (t - 1) * W;
      int l = x > 0 ? x - 1 : x;
      int rr = x < W - 1 ? x + 1 : x;
      h[t * W + x] = 0.25 * h[p + l] + 0.5 * h[p + x] + 0.25 * h[p + rr] + 0.125 * x;
    }
  double sum = 0.0;
  for (int i = 0; i < (STEPS + 1) * W; i++) {
    if (g[i] != h[i]) fails++;
    sum += g[i];
  }
  for (int i = 0; i < N; i++)
    if (d[i] != 2.0 * i) fails++;
  free(a);
  free(b);
  free(g);
  free(h);
  free(d);
  if (fails) {
    printf("FAIL omp_task_element_deps %d\n", fails);
    return 1;
  }
  printf("ok omp_task_element_deps %.6e %.6e\n", chain, sum);
  return 0;
}
