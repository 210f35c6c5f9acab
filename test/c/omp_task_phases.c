// Iterative phases separated by taskwait: each step creates one task per
// block that computes the next array from the current one (a 3-point integer
// stencil modulo 10007), then waits for all of them with taskwait before
// the next step.  Even steps go from u to v, odd steps from v to u, chosen
// inside the task from the step number it captured.  Compared with the
// same steps run sequentially.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 2000;
  int B = 250;
  int steps = 12;
  int fails = 0;
  long *u = (long *)malloc(n * sizeof(long));
  long *v = (long *)malloc(n * sizeof(long));
  long *r = (long *)malloc(n * sizeof(long));
  long *s = (long *)malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) {
    u[i] = (i * 13) % 101;
    r[i] = u[i];
    v[i] = 0;
    s[i] = 0;
  }
  int phases = 0;
#pragma omp parallel
  {
#pragma omp single
    {
      for (int t = 0; t < steps; t++) {
        for (int lo = 0; lo < n; lo += B) {
#pragma omp task
          {
            for (int i = lo; i < lo + B; i++) {
              if (t % 2 == 0) {
                long l = (i > 0) ? u[i - 1] : u[n - 1];
                long rr = (i + 1 < n) ? u[i + 1] : u[0];
                v[i] = (l + 2 * u[i] + 3 * rr + t) % 10007;
              } else {
                long l = (i > 0) ? v[i - 1] : v[n - 1];
                long rr = (i + 1 < n) ? v[i + 1] : v[0];
                u[i] = (l + 2 * v[i] + 3 * rr + t) % 10007;
              }
            }
          }
        }
#pragma omp taskwait
        phases++;
      }
    }
  }
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++) {
      long l = (i > 0) ? r[i - 1] : r[n - 1];
      long rr = (i + 1 < n) ? r[i + 1] : r[0];
      s[i] = (l + 2 * r[i] + 3 * rr + t) % 10007;
    }
    for (int i = 0; i < n; i++)
      r[i] = s[i];
  }
  /* steps is even: the last step wrote u */
  long sum = 0;
  for (int i = 0; i < n; i++) {
    if (u[i] != r[i]) fails++;
    sum += u[i];
  }
  if (phases != steps) fails++;
  free(u);
  free(v);
  free(r);
  free(s);
  if (fails) {
    printf("FAIL omp_task_phases %d\n", fails);
    return 1;
  }
  printf("ok omp_task_phases %d %ld\n", phases, sum);
  return 0;
}
