// EXPECT-ERROR: 7:3: unsupported C construct: a 'void *' variable assigned after its declaration
// A void * local assigned again: opaque pointers have no memory slot; one variable per value.
#include <omp.h>
#include <stdio.h>

int main(void) {
  void *p = omp_alloc(16, omp_default_mem_alloc);
  p = omp_realloc(p, 32, omp_default_mem_alloc, omp_default_mem_alloc);
  printf("%d\n", p != 0);
  omp_free(p, omp_default_mem_alloc);
  return 0;
}
