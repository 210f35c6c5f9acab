/* single copyprivate: the value one thread computes in a single reaches every thread's
   private copy after it (a variable declared in the region, and one made private by the
   region's clause); the single's body runs once. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

#define T 4

int main(void) {
  int got[T], runs = 0;
  double scaled[T];
  long seed = 7;
  for (int t = 0; t < T; t++) {
    got[t] = -1;
    scaled[t] = -1.0;
  }
#pragma omp parallel num_threads(T) private(seed) shared(runs)
  {
    int v = -1;
    seed = -1;
#pragma omp single copyprivate(v, seed)
    {
      v = 6 * 7;
      seed = 1000;
      runs++;
    }
    int me = omp_get_thread_num();
    got[me] = v;
    scaled[me] = 0.5 * (double)(seed + v);
  }
#ifdef _OPENMP
  int ok = runs == 1 && seed == 7; /* the region's copies were private */
#else
  int ok = runs == 1 && seed == 1000;
#endif
  for (int t = 0; t < T; t++) {
    if (got[t] == -1) /* a team of fewer threads leaves its slots */
      continue;
    ok = ok && got[t] == 42 && scaled[t] == 521.0;
  }
  ok = ok && got[0] == 42;
  if (!ok) {
    printf("FAIL omp_single_copyprivate %d %d %d %.1f\n", runs, got[0], got[T - 1], scaled[0]);
    return 1;
  }
  printf("ok omp_single_copyprivate %d %.1f\n", got[0], scaled[0]);
  return 0;
}
