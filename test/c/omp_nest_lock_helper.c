// A nest lock taken recursively by a helper the loop body calls (a recursive function,
// which stays a call), around a global counter; then omp_test_nest_lock's nesting counts.
// The helper's lock and global keep the loop on node 0's memory with several nodes.
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif

#if defined(_OPENMP) || defined(__CARTS__)
static omp_nest_lock_t guard;
#endif
static int entered = 0;

static void enter(int depth) {
#if defined(_OPENMP) || defined(__CARTS__)
  omp_set_nest_lock(&guard);
#endif
  entered += 1;
  if (depth > 0)
    enter(depth - 1);
#if defined(_OPENMP) || defined(__CARTS__)
  omp_unset_nest_lock(&guard);
#endif
}

int main(void) {
  int counts = 3;
#if defined(_OPENMP) || defined(__CARTS__)
  omp_init_nest_lock(&guard);
#endif
#pragma omp parallel for
  for (int i = 0; i < 40; i++)
    enter(i % 4);
#if defined(_OPENMP) || defined(__CARTS__)
  int first = omp_test_nest_lock(&guard);
  int second = omp_test_nest_lock(&guard);
  counts = first + second;
  omp_unset_nest_lock(&guard);
  omp_unset_nest_lock(&guard);
  omp_destroy_nest_lock(&guard);
#endif
  if (entered != 100 || counts != 3) {
    printf("FAIL omp_nest_lock_helper %d %d\n", entered, counts);
    return 1;
  }
  printf("ok omp_nest_lock_helper %d\n", entered);
  return 0;
}
