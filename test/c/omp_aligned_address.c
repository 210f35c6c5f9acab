// Memory from omp_aligned_alloc, omp_aligned_calloc and an allocator with an alignment
// trait is checked as such programs check it, through the address as an integer
// ((uintptr_t)p % 64), then filled by parallel loops: every datablock starts on a 64-byte
// line, on several nodes as on one.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif

int main(void) {
  int n = 1000, misaligned = 0;
#if defined(_OPENMP) || defined(__CARTS__)
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t lined = omp_init_allocator(omp_default_mem_space, 1, traits);
  double *a = (double *)omp_aligned_alloc(64, n * sizeof(double), omp_default_mem_alloc);
  int *b = (int *)omp_aligned_calloc(64, n, sizeof(int), omp_default_mem_alloc);
  long *c = (long *)omp_alloc(n * sizeof(long), lined);
#else
  double *a = (double *)aligned_alloc(64, n * sizeof(double));
  int *b = (int *)calloc(n, sizeof(int));
  long *c = (long *)aligned_alloc(64, n * sizeof(long));
#endif
  misaligned += ((uintptr_t)a) % 64 != 0;
  misaligned += ((intptr_t)(c) & 63) != 0;
#if defined(_OPENMP) || defined(__CARTS__)
  misaligned += (unsigned long)b % 64 != 0;
#endif
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    a[i] = 0.5 * i;
    b[i] += i % 7;
    c[i] = 3L * i;
  }
  double sa = 0;
  long sb = 0, sc = 0;
#pragma omp parallel for reduction(+: sa, sb, sc)
  for (int i = 0; i < n; i++) {
    sa += a[i];
    sb += b[i];
    sc += c[i];
  }
  long expect_b = 0;
  for (int i = 0; i < n; i++)
    expect_b += i % 7;
  int ok = !misaligned && sa == 0.5 * n * (n - 1) / 2 && sb == expect_b &&
           sc == 3L * n * (n - 1) / 2;
#if defined(_OPENMP) || defined(__CARTS__)
  omp_free(a, omp_default_mem_alloc);
  omp_free(b, omp_default_mem_alloc);
  omp_free(c, lined);
  omp_destroy_allocator(lined);
#else
  free(a);
  free(b);
  free(c);
#endif
  if (!ok) {
    printf("FAIL omp_aligned_address %d %g %ld %ld\n", misaligned, sa, sb, sc);
    return 1;
  }
  printf("ok omp_aligned_address %g %ld %ld\n", sa, sb, sc);
  return 0;
}
