/*
 * What the normalisation examples share: the fills of their affine weights that the golden
 * reference also knows (weight kinds 1-3), and, with NORM_DUMP defined, dumps of float arrays
 * in exact hex (%a): a line `dump NAME D0 [D1 [D2]]`, then one line of values per innermost row.
 */
#ifndef CARTS_NORM_SUPPORT_H
#define CARTS_NORM_SUPPORT_H

#include <stdio.h>

/* kind 1 or 2: gamma = kind, beta = kind - 1 everywhere; kind 3: values from a small LCG,
   seed = (75 * seed + 74) mod 65537 (the product fits an int) */
static void fill_affine_weights(float *gamma, float *beta, int count, int kind) {
  int seed = 12345;
  for (int i = 0; i < count; i++) {
    if (kind == 3) {
      seed = (seed * 75 + 74) % 65537;
      gamma[i] = 0.5f + (float)seed / 65537.0f;
      seed = (seed * 75 + 74) % 65537;
      beta[i] = (float)seed / 65537.0f - 0.5f;
    } else {
      gamma[i] = (float)kind;
      beta[i] = (float)(kind - 1);
    }
  }
}

#ifdef NORM_DUMP
static void dump_1d(const char *name, float *a, int count) {
  printf("dump %s %d\n", name, count);
  for (int i = 0; i < count; i++)
    printf(i == 0 ? "%a" : " %a", (double)a[i]);
  printf("\n");
}

static void dump_2d(const char *name, float **a, int rows, int cols) {
  printf("dump %s %d %d\n", name, rows, cols);
  for (int r = 0; r < rows; r++) {
    for (int i = 0; i < cols; i++)
      printf(i == 0 ? "%a" : " %a", (double)a[r][i]);
    printf("\n");
  }
}

static void dump_3d(const char *name, float ***a, int d0, int d1, int d2) {
  printf("dump %s %d %d %d\n", name, d0, d1, d2);
  for (int i = 0; i < d0; i++)
    for (int j = 0; j < d1; j++) {
      for (int k = 0; k < d2; k++)
        printf(k == 0 ? "%a" : " %a", (double)a[i][j][k]);
      printf("\n");
    }
}
#endif

#endif /* CARTS_NORM_SUPPORT_H */
