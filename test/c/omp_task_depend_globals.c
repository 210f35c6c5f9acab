/* depend items on global variables (arrays and a scalar) that main uses: tasks ordered by
   them run in the order the dependences give, whatever the thread count. */
#include <stdio.h>

#define N 64

double field[N], next[N];
int round_seen = -1;
long checks;

int main(void) {
  for (int i = 0; i < N; i++)
    field[i] = i % 9;
#pragma omp parallel
#pragma omp single
  {
    for (int r = 0; r < 4; r++) {
#pragma omp task depend(inout: field) depend(out: round_seen)
      {
        for (int i = 0; i < N; i++)
          field[i] = field[i] * 0.5 + r;
        round_seen = r;
      }
#pragma omp task depend(in: field, round_seen) depend(out: next)
      for (int i = 0; i < N; i++)
        next[i] = field[i] + round_seen;
#pragma omp task depend(in: next) depend(inout: checks)
      checks += (long)next[N - 1];
    }
  }
  /* the same rounds in order */
  double f[N], nx[N];
  long c = 0;
  for (int i = 0; i < N; i++)
    f[i] = i % 9;
  for (int r = 0; r < 4; r++) {
    for (int i = 0; i < N; i++)
      f[i] = f[i] * 0.5 + r;
    for (int i = 0; i < N; i++)
      nx[i] = f[i] + r;
    c += (long)nx[N - 1];
  }
  int ok = round_seen == 3 && checks == c;
  double s = 0;
  for (int i = 0; i < N; i++) {
    ok = ok && next[i] == nx[i] && field[i] == f[i];
    s += next[i];
  }
  if (!ok) {
    printf("FAIL omp_task_depend_globals %.4f %d %ld\n", s, round_seen, checks);
    return 1;
  }
  printf("ok omp_task_depend_globals %.4f %ld\n", s, checks);
  return 0;
}
