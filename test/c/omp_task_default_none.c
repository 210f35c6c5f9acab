// default(none) on tasks with every variable listed: shared arrays and a
// shared result scalar, firstprivate loop index and parameters, and a
// private temporary.  The same work is then done with default(shared),
// where the arrays are shared implicitly and the index firstprivate
// explicitly.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1200;
  int B = 100;
  int nb = 12;
  int fails = 0;
  long mul = 3;
  long add = 11;
  long tail = 0;
  long *in = (long *)malloc(n * sizeof(long));
  long *out = (long *)malloc(n * sizeof(long));
  long *out2 = (long *)malloc(n * sizeof(long));
  long t = 0;
  for (int i = 0; i < n; i++) {
    in[i] = i % 29;
    out[i] = -1;
    out2[i] = -1;
  }
#pragma omp parallel
  {
#pragma omp single
    {
      for (int k = 0; k < nb; k++) {
#pragma omp task default(none) shared(in, out) firstprivate(k, B, mul, add) private(t)
        {
          for (int i = k * B; i < k * B + B; i++) {
            t = in[i] * mul;
            out[i] = t + add;
          }
        }
      }
#pragma omp task default(none) shared(in, tail) firstprivate(n)
      tail = in[n - 1] * 1000;
#pragma omp taskwait
      for (int k = 0; k < nb; k++) {
#pragma omp task default(shared) firstprivate(k)
        {
          for (int i = k * B; i < k * B + B; i++)
            out2[i] = out[i] - in[i];
        }
      }
#pragma omp taskwait
    }
  }
  long total = 0;
  for (int i = 0; i < n; i++) {
    if (out[i] != (i % 29) * 3 + 11) fails++;
    if (out2[i] != (i % 29) * 2 + 11) fails++;
    total += out[i] + out2[i];
  }
  if (tail != ((n - 1) % 29) * 1000) fails++;
  free(in);
  free(out);
  free(out2);
  if (fails) {
    printf("FAIL omp_task_default_none %d\n", fails);
    return 1;
  }
  printf("ok omp_task_default_none %ld %ld\n", total, tail);
  return 0;
}
