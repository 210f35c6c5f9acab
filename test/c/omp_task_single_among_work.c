/* A region in which a single (or master) creating tasks sits among other work: a
   worksharing loop after it, and per-thread values computed from the thread's number
   before it and used after a barrier. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

#define N 64
#define T 4

int main(void) {
  int a[N], mark[T];
  for (int t = 0; t < T; t++)
    mark[t] = -1;
#pragma omp parallel
  {
#pragma omp single
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) shared(a)
      a[i] = i;
    }
#pragma omp for
    for (int i = 0; i < N; i++)
      a[i] += 1;
  }
  int b[N];
#pragma omp parallel num_threads(T)
  {
    int tid = omp_get_thread_num();
    int twice = tid * 2;
#pragma omp master
    for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) shared(b)
      b[i] = i * 3;
    }
#pragma omp barrier
    mark[tid] = twice + b[N - 1];
  }
  int ok = mark[0] == 189;
  for (int i = 0; i < N; i++)
    ok = ok && a[i] == i + 1 && b[i] == 3 * i;
  for (int t = 1; t < T; t++)
    ok = ok && (mark[t] == -1 || mark[t] == 2 * t + 189);
  if (!ok) {
    printf("FAIL omp_task_single_among_work %d %d %d\n", a[N - 1], b[N - 1], mark[0]);
    return 1;
  }
  printf("ok omp_task_single_among_work %d %d\n", a[N - 1], mark[0]);
  return 0;
}
