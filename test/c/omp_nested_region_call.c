/* A parallel region in a function that a parallel region calls (and that main calls too):
   inside the outer team it runs with a team of one (libgomp's default of one active
   level), its worksharing loop as the plain loop, its reduction into the variable, its
   single by the one thread; called from main it runs with a full team. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
static int omp_get_level(void) { return 0; }
#endif

#define T 4

static double work(const double *a, int n, int *levels, int at) {
  double s = 0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; i++)
    s += a[i];
#pragma omp parallel
  {
#pragma omp single
    levels[at] = omp_get_level() * 100 + omp_get_num_threads();
  }
  return s;
}

int main(void) {
  double a[200];
  int lv[T + 1];
  double out[T];
  for (int i = 0; i < 200; i++)
    a[i] = i;
  for (int t = 0; t <= T; t++)
    lv[t] = -1;
  for (int t = 0; t < T; t++)
    out[t] = -1;
  int team = 1;
#pragma omp parallel num_threads(T)
  {
    int me = omp_get_thread_num();
    out[me] = work(a, 200, lv, me) + me;
#pragma omp single
    team = omp_get_num_threads();
  }
  double top = work(a, 100, lv, T);
  int ok = top == 4950.0 && (lv[T] % 100) >= 1;
  for (int t = 0; t < team; t++)
    ok = ok && out[t] == 19900.0 + t;
#ifdef _OPENMP
  /* a nested region: level 2, a team of one; the outer one at level 1 */
  for (int t = 0; t < team; t++)
    ok = ok && lv[t] == 201;
  ok = ok && lv[T] / 100 == 1;
#else
  ok = ok && lv[0] == 1 && lv[T] == 1;
#endif
  if (!ok) {
    printf("FAIL omp_nested_region_call %d %.1f %.1f %d %d\n", team, top, out[0], lv[0], lv[T]);
    return 1;
  }
  printf("ok omp_nested_region_call %.1f %.1f\n", top, out[0]);
  return 0;
}
