/* Loop transformations that keep the iterations and their order (tile under a worksharing
   loop, unroll), and an error directive of severity warning, which lets the compile go on. */
#include <stdio.h>

#define N 256

int main(void) {
  int a[N];
  long sum = 0;
#pragma omp parallel for
#pragma omp tile sizes(16)
  for (int i = 0; i < N; i++)
    a[i] = 3 * i;
#pragma omp unroll partial(4)
  for (int i = 0; i < N; i++)
    sum += a[i];
#pragma omp unroll full
  for (int i = 0; i < 4; i++)
    sum += i;
#pragma omp error severity(warning) message("a warning at compilation")
  if (sum != 3L * N * (N - 1) / 2 + 6) {
    printf("FAIL omp_tile_unroll %ld\n", sum);
    return 1;
  }
  printf("ok omp_tile_unroll %ld\n", sum);
  return 0;
}
