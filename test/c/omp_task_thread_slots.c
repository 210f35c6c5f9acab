// Tasks that add into a slot of their thread (partial[omp_get_thread_num()]) with no depend
// item, directly and through a helper updating a global table: OpenMP runs each task on one
// thread, so the slots of concurrent tasks differ and the sum of the slots counts every task
// exactly once.
#include <stdio.h>
#if defined(_OPENMP)
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

#define TASKS 5000

static long global_slots[256];

static void add_to_my_slot(long v) { global_slots[omp_get_thread_num()] += v; }

int main(void) {
  long partial[256];
  for (int i = 0; i < 256; i++)
    partial[i] = 0;
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < TASKS; i++) {
#pragma omp task
    {
      long v = 0;
      for (int k = 0; k <= i % 50; k++)
        v += k;
      partial[omp_get_thread_num()] += v + 1;
    }
#pragma omp task
    add_to_my_slot(i % 3 + 1);
  }
  long sum = 0;
  for (int i = 0; i < 256; i++)
    sum += partial[i] + global_slots[i];
  long expect = 0;
  for (int i = 0; i < TASKS; i++)
    expect += (long)(i % 50) * (i % 50 + 1) / 2 + 1 + i % 3 + 1;
  if (sum != expect) {
    printf("FAIL omp_task_thread_slots %ld %ld\n", sum, expect);
    return 1;
  }
  printf("ok omp_task_thread_slots %ld\n", sum);
  return 0;
}
