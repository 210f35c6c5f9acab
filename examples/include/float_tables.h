/*
 * Three-dimensional float tables, as the 3-D examples allocate them: a table of row tables,
 * every row malloc'd on its own.
 */
#ifndef CARTS_FLOAT_TABLES_H
#define CARTS_FLOAT_TABLES_H

#include <stdlib.h>

static float ***alloc_3d(int d0, int d1, int d2) {
  float ***a = (float ***)malloc(d0 * sizeof(float **));
  for (int i = 0; i < d0; i++) {
    a[i] = (float **)malloc(d1 * sizeof(float *));
    for (int j = 0; j < d1; j++)
      a[i][j] = (float *)malloc(d2 * sizeof(float));
  }
  return a;
}

static void free_3d(float ***a, int d0, int d1) {
  for (int i = 0; i < d0; i++) {
    for (int j = 0; j < d1; j++)
      free(a[i][j]);
    free(a[i]);
  }
  free(a);
}

#endif /* CARTS_FLOAT_TABLES_H */
