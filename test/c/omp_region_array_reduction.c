// Reductions on arrays named by a parallel region (not by a loop): a whole local array, a
// section in the middle of one (the elements outside it are not the region's to touch),
// and a section of heap memory through a pointer. Each thread adds into its own copy; the
// copies are combined when the region ends.
#include <stdio.h>
#include <stdlib.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif

static int thread_id(void) {
#if defined(_OPENMP) || defined(__CARTS__)
  return omp_get_thread_num();
#else
  return 0;
#endif
}

int main(void) {
  int hist[6] = {0, 0, 0, 0, 0, 0};
  long mid[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  double *w = malloc(10 * sizeof(double));
  for (int i = 0; i < 10; i++)
    w[i] = 0.5 * i;
  int members = 0;
#pragma omp parallel reduction(+: hist, members) reduction(*: mid[2:3]) reduction(max: w[4:4])
  {
    members += 1;
    int t = thread_id();
    hist[t % 5] += 1;
    hist[5] += 2;
    mid[2] *= 2;
    mid[4] *= 3;
    if (w[4] < 10.0 + t)
      w[4] = 10.0 + t;
  }
  int total = 0;
  for (int k = 0; k < 5; k++)
    total += hist[k];
  long expect_mid2 = 3, expect_mid4 = 5;
  for (int k = 0; k < members; k++) {
    expect_mid2 *= 2;
    expect_mid4 *= 3;
  }
  int ok = members >= 1 && total == members && hist[5] == 2 * members &&
           mid[2] == expect_mid2 && mid[4] == expect_mid4 && mid[0] == 1 && mid[3] == 4 &&
           w[4] == 10.0 + (members - 1) && w[5] == 2.5 && w[3] == 1.5;
  free(w);
  if (!ok) {
    printf("FAIL omp_region_array_reduction %d %d %d %ld %ld %g\n", members, total, hist[5], mid[2],
           mid[4], w[4]);
    return 1;
  }
  printf("ok omp_region_array_reduction\n");
  return 0;
}
