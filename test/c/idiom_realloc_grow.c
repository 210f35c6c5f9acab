/* An array grown with realloc as input arrives (doubling its capacity), another shrunk,
   an array of structs grown with omp_realloc's C twin, each filled by parallel loops
   between the resizes: the elements both allocations have are kept. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int key;
  double weight;
} Entry;

int main(void) {
  int n = 0, cap = 16;
  long *seen = malloc(cap * sizeof(long));
  for (int chunk = 0; chunk < 5; chunk++) {
    int more = 40 + chunk * 10;
    if (n + more > cap) {
      while (n + more > cap)
        cap *= 2;
      seen = realloc(seen, cap * sizeof(long));
    }
#pragma omp parallel for
    for (int i = n; i < n + more; i++)
      seen[i] = 3L * i + chunk;
    n += more;
  }
  double *half = (double *)malloc(n * sizeof(double));
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    half[i] = 0.5 * seen[i];
  half = (double *)realloc(half, (n / 2) * sizeof(double));
  Entry *table = malloc(8 * sizeof(Entry));
  for (int i = 0; i < 8; i++) {
    table[i].key = i;
    table[i].weight = i * 0.25;
  }
  table = realloc(table, 64 * sizeof *table);
#pragma omp parallel for
  for (int i = 8; i < 64; i++) {
    table[i].key = i;
    table[i].weight = i * 0.25;
  }
  long total = 0;
  double halves = 0, weights = 0;
  long keys = 0;
#pragma omp parallel for reduction(+: total)
  for (int i = 0; i < n; i++)
    total += seen[i];
#pragma omp parallel for reduction(+: halves)
  for (int i = 0; i < n / 2; i++)
    halves += half[i];
  for (int i = 0; i < 64; i++) {
    keys += table[i].key;
    weights += table[i].weight;
  }
  long expect = 0, start = 0;
  double expect_halves = 0;
  for (int chunk = 0; chunk < 5; chunk++) {
    int more = 40 + chunk * 10;
    for (long i = start; i < start + more; i++) {
      expect += 3 * i + chunk;
      if (i < n / 2)
        expect_halves += 0.5 * (3 * i + chunk);
    }
    start += more;
  }
  free(seen);
  free(half);
  free(table);
  if (n != 300 || cap != 512 || total != expect || halves != expect_halves || keys != 2016 ||
      weights != 504) {
    printf("FAIL idiom_realloc_grow %d %d %ld %g %ld %g\n", n, cap, total, halves, keys, weights);
    return 1;
  }
  printf("ok idiom_realloc_grow %d %ld %g\n", cap, total, halves);
  return 0;
}
