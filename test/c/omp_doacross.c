// Doacross loops: `ordered(n)` with `ordered depend(sink: ...)` / `depend(source)` and the
// OpenMP 5.2 spelling `doacross(sink: ...)` / `doacross(source:)`. Each iteration reads what
// an earlier iteration wrote between its sink and source points; work before the sink point
// and after the source point may overlap between iterations.
#include <stdio.h>
#include <stdlib.h>

#define N 200
#define M 40

int main(void) {
  int fails = 0;
  double *a = (double *)malloc(N * sizeof(double));
  double *w = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(N * M * sizeof(double));
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    w[i] = 0.0;
  }
  a[0] = 1.0;

  /* a prefix recurrence: a[i] needs a[i - 1] of the iteration before */
#pragma omp parallel for ordered(1) schedule(static, 1)
  for (int i = 1; i < N; i++) {
    double local = 0.5 * (double)(i % 7); /* independent work before the sink */
#pragma omp ordered depend(sink: i - 1)
    a[i] = a[i - 1] + local + 1.0;
#pragma omp ordered depend(source)
    w[i] = a[i] * 2.0; /* after the source point */
  }

  /* a 2-D wavefront over a collapsed nest, collapsed: (i, j) needs (i - 1, j)
     and (i, j - 1) */
  for (int i = 0; i < N * M; i++)
    b[i] = 1.0;
#pragma omp parallel for collapse(2) ordered(2)
  for (int i = 1; i < N; i++)
    for (int j = 1; j < M; j++) {
#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
      b[i * M + j] = 0.5 * (b[(i - 1) * M + j] + b[i * M + j - 1]) + 1.0;
#pragma omp ordered depend(source)
    }

  /* ordered(2) on the outer loop alone: the sink and source points sit in the inner loop;
     the OpenMP 5.2 spelling where the compiler has it */
  double *d = (double *)malloc(N * M * sizeof(double));
  for (int i = 0; i < N * M; i++)
    d[i] = 1.0;
#pragma omp parallel for ordered(2)
  for (int i = 1; i < N; i++)
    for (int j = 1; j < M; j++) {
      double bias = 0.25 * (double)(i % 3); /* before the part: overlaps */
#if _OPENMP >= 202111
#pragma omp ordered doacross(sink: i - 1, j) doacross(sink: i, j - 1)
#else
#pragma omp ordered depend(sink: i - 1, j) depend(sink: i, j - 1)
#endif
      d[i * M + j] = 0.5 * (d[(i - 1) * M + j] + d[i * M + j - 1]) + bias;
#if _OPENMP >= 202111
#pragma omp ordered doacross(source: omp_cur_iteration)
#else
#pragma omp ordered depend(source)
#endif
    }

  double expect = 1.0;
  for (int i = 1; i < N; i++) {
    expect = expect + 0.5 * (double)(i % 7) + 1.0;
    if (a[i] != expect) fails++;
    if (w[i] != 2.0 * expect) fails++;
  }
  double *c = (double *)malloc(N * M * sizeof(double));
  for (int i = 0; i < N * M; i++)
    c[i] = 1.0;
  for (int i = 1; i < N; i++)
    for (int j = 1; j < M; j++)
      c[i * M + j] = 0.5 * (c[(i - 1) * M + j] + c[i * M + j - 1]) + 1.0;
  double sum = 0.0;
  for (int i = 0; i < N * M; i++) {
    if (b[i] != c[i]) fails++;
    sum += b[i];
  }
  for (int i = 0; i < N * M; i++)
    c[i] = 1.0;
  for (int i = 1; i < N; i++)
    for (int j = 1; j < M; j++)
      c[i * M + j] = 0.5 * (c[(i - 1) * M + j] + c[i * M + j - 1]) + 0.25 * (double)(i % 3);
  for (int i = 0; i < N * M; i++) {
    if (d[i] != c[i]) fails++;
    sum += d[i];
  }
  free(a);
  free(w);
  free(b);
  free(c);
  free(d);
  if (fails) {
    printf("FAIL omp_doacross %d\n", fails);
    return 1;
  }
  printf("ok omp_doacross %.6f %.6f\n", expect, sum);
  return 0;
}
