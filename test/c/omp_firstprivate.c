// firstprivate(...) on parallel for: every thread's copy starts with the
// value from before the loop (int, float, double, and a pointer-typed
// variable); copies are only read, so the result is schedule-independent.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 5000;
  int fails = 0;
  int offset = 7;
  float scale = 0.5f;
  double bias = 0.25;
  float *src = (float *)malloc(n * sizeof(float));
  float *dst = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    src[i] = (float)i;
  float *table = src;
#pragma omp parallel for firstprivate(offset, scale, bias, table)
  for (int i = 0; i < n; i++)
    dst[i] = (table[i] + (float)offset) * scale + (float)bias;
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (dst[i] != ((float)i + 7.0f) * 0.5f + 0.25f)
      fails++;
    s += dst[i];
  }
  if (offset != 7 || scale != 0.5f) fails++;
  free(src);
  free(dst);
  if (fails) {
    printf("FAIL omp_firstprivate %d\n", fails);
    return 1;
  }
  printf("ok omp_firstprivate %.2f\n", s);
  return 0;
}
