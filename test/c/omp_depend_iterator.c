// depend(iterator(it = lo:hi[:step]), kind: a[it]): a task that reads every element the
// tasks before it wrote one each, a task writing every other element through an iterator
// with a step, and tasks reading them after it; the results are those of the task order.
#include <stdio.h>

#define N 8

int main(void) {
  int v[N], w[N], total = -1, after = -1;
  for (int k = 0; k < N; k++)
    w[k] = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int k = 0; k < N; k++) {
#pragma omp task depend(out: v[k]) shared(v)
      v[k] = k + 1;
    }
#pragma omp task depend(iterator(it = 0:N), in: v[it]) shared(v, total)
    {
      int s = 0;
      for (int k = 0; k < N; k++)
        s += v[k];
      total = s;
    }
#pragma omp task depend(iterator(j = 0:N:2), out: w[j]) shared(w)
    for (int k = 0; k < N; k += 2)
      w[k] = 10 * k;
#pragma omp task depend(in: w[0], w[2], w[4], w[6]) shared(w, after)
    after = w[0] + w[2] + w[4] + w[6];
  }
  if (total != N * (N + 1) / 2 || after != 120) {
    printf("FAIL omp_depend_iterator %d %d\n", total, after);
    return 1;
  }
  printf("ok omp_depend_iterator %d %d\n", total, after);
  return 0;
}
