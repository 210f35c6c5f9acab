/*
 * Row tables, as PolyBench's C versions allocate their matrices: an array of row pointers,
 * each row malloc'd on its own. Define DATA_TYPE before including this header.
 */
#ifndef CARTS_ROW_TABLES_H
#define CARTS_ROW_TABLES_H

#include <stdlib.h>

static DATA_TYPE **alloc_2d(int rows, int cols) {
  DATA_TYPE **a = (DATA_TYPE **)malloc(rows * sizeof(DATA_TYPE *));
  for (int i = 0; i < rows; i++)
    a[i] = (DATA_TYPE *)malloc(cols * sizeof(DATA_TYPE));
  return a;
}

static void free_2d(DATA_TYPE **a, int rows) {
  for (int i = 0; i < rows; i++)
    free(a[i]);
  free(a);
}

#endif /* CARTS_ROW_TABLES_H */
