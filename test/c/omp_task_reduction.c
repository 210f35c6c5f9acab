/* Task reductions: a taskgroup's task_reduction joined by its tasks (in_reduction), also
   from a function the taskgroup calls and through a taskloop; reduction(task, ...) on a
   region whose single creates the tasks and on a worksharing loop whose iterations do. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif

#define N 240

static long called;

static void add_tasks(const int *v, int lo, int hi) {
  for (int i = lo; i < hi; i++) {
#pragma omp task in_reduction(+: called) firstprivate(i)
    called += v[i];
  }
}

int main(void) {
  int v[N];
  long expect_sum = 0;
  int expect_max = 0, expect_all = 1;
  double expect_prod = 1.0;
  for (int i = 0; i < N; i++) {
    v[i] = (i * 37) % 101;
    expect_sum += v[i];
    if (v[i] > expect_max) expect_max = v[i];
    expect_all = expect_all && v[i] != 100;
  }
  for (int i = 0; i < 20; i++) expect_prod *= (i % 3 == 0) ? 2.0 : 1.0;

  long sum = 0;
  int big = -1, all = 1;
  double prod = 1.0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+: sum) task_reduction(max: big) task_reduction(&&: all)
    {
      for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+: sum) in_reduction(max: big) in_reduction(&&: all)
        {
          sum += v[i];
          big = v[i] > big ? v[i] : big;
          all = all && v[i] != 100;
        }
      }
    }
#pragma omp taskgroup task_reduction(*: prod)
    {
#pragma omp taskloop in_reduction(*: prod) grainsize(3)
      for (int i = 0; i < 20; i++)
        prod *= (i % 3 == 0) ? 2.0 : 1.0;
    }
  }

  /* the tasks come from a function the taskgroup's body calls */
#pragma omp parallel
#pragma omp master
#pragma omp taskgroup task_reduction(+: called)
  {
    add_tasks(v, 0, N / 2);
    add_tasks(v, N / 2, N);
  }

  /* a region's reduction joined by the tasks its single creates */
  long total = 5;
  int creators = 0;
#pragma omp parallel reduction(task, +: total)
  {
#pragma omp single
    {
      creators++;
      for (int i = 0; i < N; i += 4) {
#pragma omp task in_reduction(+: total)
        total += v[i] + v[i + 1] + v[i + 2] + v[i + 3];
      }
    }
  }

  /* a worksharing loop's reduction joined by a task per iteration */
  long per_iter = 0;
#pragma omp parallel for reduction(task, +: per_iter)
  for (int i = 0; i < N; i++) {
#pragma omp task in_reduction(+: per_iter)
    per_iter += v[i];
    per_iter += 1;
  }

  int ok = sum == expect_sum && big == expect_max && all == expect_all && prod == expect_prod &&
           called == expect_sum && total == expect_sum + 5 && creators == 1 &&
           per_iter == expect_sum + N;
  if (!ok) {
    printf("FAIL omp_task_reduction %ld %d %d %.1f %ld %ld %ld\n", sum, big, all, prod,
           called, total, per_iter);
    return 1;
  }
  printf("ok omp_task_reduction %ld %d %d %.1f %ld\n", sum, big, all, prod, per_iter);
  return 0;
}
