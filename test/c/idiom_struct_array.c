// Benchmark idiom: an array of structs, struct particle { double x, v; },
// updated in a parallel for (each iteration one particle, several explicit
// Euler steps with an exact step of 0.5), then a reduction over a field.
// Compared with the same update done sequentially on a second array.
#include <stdio.h>
#include <stdlib.h>

struct particle {
  double x, v;
};

int main(void) {
  int n = 5000;
  int steps = 8;
  int fails = 0;
  struct particle *p = (struct particle *)malloc(n * sizeof(struct particle));
  struct particle *r = (struct particle *)malloc(n * sizeof(struct particle));
  for (int i = 0; i < n; i++) {
    p[i].x = (double)(i % 100);
    p[i].v = (double)(i % 7) - 3.0;
    r[i] = p[i];
  }
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    for (int s = 0; s < steps; s++) {
      p[i].x += 0.5 * p[i].v;
      p[i].v -= 0.5;
    }
  }
  for (int i = 0; i < n; i++)
    for (int s = 0; s < steps; s++) {
      r[i].x = r[i].x + 0.5 * r[i].v;
      r[i].v = r[i].v - 0.5;
    }
  double sx = 0.0;
#pragma omp parallel for reduction(+ : sx)
  for (int i = 0; i < n; i++)
    sx += p[i].x;
  double ex = 0.0;
  for (int i = 0; i < n; i++) {
    if (p[i].x != r[i].x || p[i].v != r[i].v) fails++;
    ex += r[i].x;
  }
  if (sx != ex) fails++;
  free(p);
  free(r);
  if (fails) {
    printf("FAIL idiom_struct_array %d %f %f\n", fails, sx, ex);
    return 1;
  }
  printf("ok idiom_struct_array %.2f\n", sx);
  return 0;
}
