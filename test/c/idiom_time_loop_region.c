// Jacobi-style time loop inside one #pragma omp parallel region:
// for (t = 0; t < T; t++) { #pragma omp for (b from a); #pragma omp for
// (a from b) } -- the implicit barriers of the two worksharing loops order
// the ping-pong.  The stencil uses integer values (exact), and the result
// is compared with the same sweeps done sequentially.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 2000;
  int T = 20;
  int fails = 0;
  long *a = (long *)malloc(n * sizeof(long));
  long *b = (long *)malloc(n * sizeof(long));
  long *ra = (long *)malloc(n * sizeof(long));
  long *rb = (long *)malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) {
    a[i] = (i * 17) % 23;
    ra[i] = a[i];
    b[i] = 0;
    rb[i] = 0;
  }
#pragma omp parallel
  {
    for (int t = 0; t < T; t++) {
#pragma omp for
      for (int i = 1; i < n - 1; i++)
        b[i] = (a[i - 1] + 2 * a[i] + a[i + 1] + t) % 1000003;
#pragma omp for
      for (int i = 1; i < n - 1; i++)
        a[i] = (b[i - 1] + b[i] + b[i + 1]) % 1000003;
    }
  }
  for (int s = 0; s < T; s++) {
    for (int i = 1; i < n - 1; i++)
      rb[i] = (ra[i - 1] + 2 * ra[i] + ra[i + 1] + s) % 1000003;
    for (int i = 1; i < n - 1; i++)
      ra[i] = (rb[i - 1] + rb[i] + rb[i + 1]) % 1000003;
  }
  long sum = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] != ra[i] || b[i] != rb[i]) fails++;
    sum += a[i];
  }
  free(a);
  free(b);
  free(ra);
  free(rb);
  if (fails) {
    printf("FAIL idiom_time_loop_region %d\n", fails);
    return 1;
  }
  printf("ok idiom_time_loop_region %ld\n", sum);
  return 0;
}
