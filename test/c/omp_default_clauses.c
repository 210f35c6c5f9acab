/* default(firstprivate) and default(private) (OpenMP 5.1) on parallel, parallel for and
   task: the local variables a construct uses and no clause names get copies of their own
   (initialised from the variable, or not); named ones keep their clause. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

int main(void) {
  int base = 5, seen[4] = {0, 0, 0, 0}, doubled[4] = {0, 0, 0, 0};
  double scale = 2.0;
#pragma omp parallel num_threads(4) default(firstprivate) shared(seen, doubled)
  {
    int me = omp_get_thread_num();
    base += me; /* each thread's own copy, from 5 */
    scale *= 2;
    seen[me] = base;
    doubled[me] = (int)scale;
  }
  int priv = 7, marks[4] = {0, 0, 0, 0};
#pragma omp parallel for default(private) shared(marks)
  for (int i = 0; i < 4; i++) {
    priv = i * 3;
    marks[i] = priv;
  }
  int t = -1, tout[4] = {0, 0, 0, 0};
#pragma omp parallel
#pragma omp single
  for (int k = 0; k < 4; k++) {
#pragma omp task default(firstprivate) shared(tout)
    {
      t = k * 10;
      tout[k] = t;
    }
  }
  int ok = seen[0] == 5 && doubled[0] == 4 && marks[3] == 9 && tout[3] == 30;
#ifdef _OPENMP
  ok = ok && base == 5 && scale == 2.0 && priv == 7 && t == -1;
  for (int m = 1; m < 4; m++)
    ok = ok && (seen[m] == 0 || (seen[m] == 5 + m && doubled[m] == 4));
#endif
  if (!ok) {
    printf("FAIL omp_default_clauses %d %d %.1f %d %d %d\n", base, seen[0], scale, priv, t, tout[3]);
    return 1;
  }
  printf("ok omp_default_clauses %d %d %d\n", seen[0], marks[3], tout[3]);
  return 0;
}
