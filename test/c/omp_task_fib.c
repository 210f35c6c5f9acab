// Recursive Fibonacci with tasks in a plain function called from a single
// block: each call above a cutoff spawns two tasks that store into the
// caller's locals through shared(x) / shared(y) and waits for them with
// taskwait.  Compared with an iterative loop.
#include <stdio.h>

static long fib_seq(int n) {
  if (n < 2)
    return n;
  return fib_seq(n - 1) + fib_seq(n - 2);
}

static long fib(int n) {
  long x = 0;
  long y = 0;
  if (n < 8)
    return fib_seq(n);
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  int n = 20;
  int fails = 0;
  long result = -1;
#pragma omp parallel
  {
#pragma omp single
    result = fib(n);
  }
  long a = 0;
  long b = 1;
  for (int i = 0; i < n; i++) {
    long t = a + b;
    a = b;
    b = t;
  }
  if (result != a) fails++;
  if (fails) {
    printf("FAIL omp_task_fib %ld %ld\n", result, a);
    return 1;
  }
  printf("ok omp_task_fib %d %ld\n", n, result);
  return 0;
}
