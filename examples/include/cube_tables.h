/*
 * Three-level tables (a[i][j][k] through two levels of pointers), each innermost row malloc'd
 * on its own. Define DATA_TYPE before including this header.
 */
#ifndef CARTS_CUBE_TABLES_H
#define CARTS_CUBE_TABLES_H

#include <stdlib.h>

static DATA_TYPE ***alloc_3d(int d0, int d1, int d2) {
  DATA_TYPE ***a = (DATA_TYPE ***)malloc(d0 * sizeof(DATA_TYPE **));
  for (int i = 0; i < d0; i++) {
    a[i] = (DATA_TYPE **)malloc(d1 * sizeof(DATA_TYPE *));
    for (int j = 0; j < d1; j++)
      a[i][j] = (DATA_TYPE *)malloc(d2 * sizeof(DATA_TYPE));
  }
  return a;
}

static void free_3d(DATA_TYPE ***a, int d0, int d1) {
  for (int i = 0; i < d0; i++) {
    for (int j = 0; j < d1; j++)
      free(a[i][j]);
    free(a[i]);
  }
  free(a);
}

#endif /* CARTS_CUBE_TABLES_H */
