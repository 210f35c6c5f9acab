/* Reductions whose list items are not local scalars: a global scalar, a whole global
   array, a section of a heap array given to a function (bins[0:nb]), a section starting
   past the array's first element, and the same under an orphaned 'omp for' in a region. */
#include <stdio.h>
#include <stdlib.h>

#define NB 8

double gsum = 1.0;
int ghist[NB];
long gmax = -1;

static void histogram(const int *v, int n, long *bins, int nb) {
#pragma omp parallel for reduction(+: bins[0:nb])
  for (int i = 0; i < n; i++)
    bins[v[i] % nb] += 1;
}

static void tail_counts(const int *v, int n, int *counts) {
  /* counts[2..5] only */
#pragma omp for reduction(+: counts[2:4])
  for (int i = 0; i < n; i++)
    if (v[i] % 6 >= 2)
      counts[v[i] % 6] += 1;
}

int main(void) {
  int n = 1200;
  int *v = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    v[i] = (i * 37) % 1001;
#pragma omp parallel for reduction(+: gsum) reduction(max: gmax)
  for (int i = 0; i < n; i++) {
    gsum += v[i] % 3;
    if (v[i] > gmax)
      gmax = v[i];
  }
#pragma omp parallel for reduction(+: ghist)
  for (int i = 0; i < n; i++)
    ghist[v[i] % NB]++;
  long *bins = calloc(5, sizeof(long));
  histogram(v, n, bins, 5);
  int counts[6] = {-1, -1, 0, 0, 0, 0};
#pragma omp parallel
  tail_counts(v, n, counts);

  double expect_sum = 1.0;
  long expect_max = -1, expect_bins[5] = {0};
  int expect_hist[NB] = {0}, expect_counts[6] = {-1, -1, 0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    expect_sum += v[i] % 3;
    if (v[i] > expect_max)
      expect_max = v[i];
    expect_hist[v[i] % NB]++;
    expect_bins[v[i] % 5]++;
    if (v[i] % 6 >= 2)
      expect_counts[v[i] % 6]++;
  }
  int ok = gsum == expect_sum && gmax == expect_max;
  for (int k = 0; k < NB; k++)
    ok = ok && ghist[k] == expect_hist[k];
  for (int k = 0; k < 5; k++)
    ok = ok && bins[k] == expect_bins[k];
  for (int k = 0; k < 6; k++)
    ok = ok && counts[k] == expect_counts[k];
  long first = bins[0];
  free(v);
  free(bins);
  if (!ok) {
    printf("FAIL omp_reduction_sections %.1f %ld %d %ld %d\n", gsum, gmax, ghist[0], first,
           counts[2]);
    return 1;
  }
  printf("ok omp_reduction_sections %.1f %ld %d %ld %d\n", gsum, gmax, ghist[0], first, counts[2]);
  return 0;
}
