// omp_in_final() inside a task with a final clause (constant and computed) and in a task
// it creates (the child of a final task is final); 0 in a task without one.  The copy of a
// threadprivate variable a single sets reaches every thread through copyprivate.  The
// schedule modifiers monotonic/nonmonotonic/simd leave the loop's result alone.
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_in_final(void) { return 1; }
#endif
#include <stdio.h>

static int tp = 0;
#pragma omp threadprivate(tp)

int main(void) {
  int fails = 0;
  int outer = -1, inner = -1, plain = -1, computed = -1;
  int deep = 30;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task final(1) shared(outer, inner)
    {
      outer = omp_in_final();
#pragma omp task shared(inner)
      inner = omp_in_final();
    }
#pragma omp task final(deep > 20) shared(computed)
    computed = omp_in_final();
  }
#ifdef _OPENMP /* the routines answer for the constructs: not in a build that ignores them */
  if (outer != 1 || inner != 1 || computed != 1) fails++;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task shared(plain)
    plain = omp_in_final();
  }
  if (plain != 0) fails++;
#endif

  int copied = 0;
#pragma omp parallel reduction(+: copied)
  {
#pragma omp single copyprivate(tp)
    tp = 55;
    copied += tp != 55;
  }
  if (copied != 0) fails++;

  long sum = 0, count = 0;
#pragma omp parallel for schedule(nonmonotonic: dynamic, 3) reduction(+: sum)
  for (int n = 0; n < 100; n++)
    sum += n;
#pragma omp parallel for schedule(simd: static) reduction(+: count)
  for (int n = 0; n < 64; n++)
    count += n % 2;
  if (sum != 4950 || count != 32) fails++;

  if (fails) {
    printf("FAIL omp_final_copyprivate %d: %d %d %d %d %d %ld %ld\n", fails, outer, inner,
           computed, plain, copied, sum, count);
    return 1;
  }
  printf("ok omp_final_copyprivate %ld %ld\n", sum, count);
  return 0;
}
