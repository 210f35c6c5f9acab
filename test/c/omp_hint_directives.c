/* Directives that ask nothing of a host program under libgomp's defaults: requires,
   the allocate clause (privates on the heap, as every allocator here), cancel and
   cancellation point (cancellation is off unless OMP_CANCELLATION is set, so every
   iteration runs), nothing, assume, and declare simd (a hint). */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_cancellation(void) { return 0; }
#endif

#pragma omp requires atomic_default_mem_order(seq_cst)

#pragma omp declare simd
static int tripled(int v) { return 3 * v; }

int main(void) {
  int x[64], scratch = 0, visited = 0;
#pragma omp parallel for allocate(omp_default_mem_alloc: scratch) private(scratch)
  for (int i = 0; i < 64; i++) {
    scratch = tripled(i);
    x[i] = scratch;
  }
  int found = -1;
#pragma omp parallel
  {
#pragma omp for reduction(+: visited)
    for (int i = 0; i < 64; i++) {
      visited++;
      if (x[i] == 120) {
#pragma omp critical
        found = i;
#pragma omp cancel for
      }
#pragma omp cancellation point for
    }
#pragma omp nothing
  }
  int total = 0;
#pragma omp assume holds(found >= 0)
  {
    total = found + x[63];
  }
  int ok = found == 40 && visited == 64 && total == 229 && omp_get_cancellation() == 0;
  if (!ok) {
    printf("FAIL omp_hint_directives %d %d %d\n", found, visited, total);
    return 1;
  }
  printf("ok omp_hint_directives %d %d\n", found, total);
  return 0;
}
