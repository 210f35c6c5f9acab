// Global arrays and scalars that parallel loops use: host stores before a loop that reads
// and writes them, a helper that takes a global array as a pointer and runs a parallel loop
// over it, a reduction over a global array in a helper, and a global scalar read by a loop.
// On several nodes a global is node 0's memory, so every such loop must see node 0's values.
#include <stdio.h>

#define N 100

int c[8];
double b[N];
double p0[8];
long scale = 3;

static void twice(double *p, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    p[i] = p[i] * 2.0;
}

static double total(double *p, int n) {
  double r = 0.0;
#pragma omp parallel for reduction(+ : r)
  for (int i = 0; i < n; i++)
    r += p[i];
  return r;
}

int main(void) {
  for (int i = 0; i < 8; i++)
    c[i] = 1;
  c[0] = 100;
#pragma omp parallel for
  for (int i = 0; i < 8; i++)
    c[i] = c[i] + 10 * (int)scale;
  long s = 0;
  for (int i = 0; i < 8; i++)
    s += c[i];

  for (int i = 0; i < N; i++)
    b[i] = i;
  twice(b, N);
  double sb = 0.0;
  for (int i = 0; i < N; i++)
    sb += b[i];

  for (int i = 0; i < 8; i++)
    p0[i] = 0.015625;
  double r = total(p0, 8);

  if (s != 347 || sb != 9900.0 || r != 0.125) {
    printf("FAIL omp_global_arrays %ld %.1f %.6f\n", s, sb, r);
    return 1;
  }
  printf("ok omp_global_arrays %ld %.1f %.6f\n", s, sb, r);
  return 0;
}
