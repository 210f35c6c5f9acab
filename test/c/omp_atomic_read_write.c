// #pragma omp atomic write and #pragma omp atomic read: in a parallel for
// only iteration n - 1 writes a flag and a value with atomic write; after
// the loop they are read back with atomic read.  A second loop has every
// iteration atomically write the same constant (any order gives it) and
// read a shared, unchanging scalar with atomic read.
#include <stdio.h>

int main(void) {
  int n = 30000;
  int fails = 0;
  int flag = 0;
  double last = 0.0;
  int same = -1;
  int source = 37;
  int badread = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (i == n - 1) {
#pragma omp atomic write
      flag = 1;
#pragma omp atomic write
      last = (double)i * 0.5;
    }
  }
#pragma omp parallel for reduction(+ : badread)
  for (int i = 0; i < n; i++) {
    int r;
#pragma omp atomic read
    r = source;
    if (r != 37) badread++;
#pragma omp atomic write
    same = 5;
  }
  int f;
  double l;
  int s;
#pragma omp atomic read
  f = flag;
#pragma omp atomic read
  l = last;
#pragma omp atomic read
  s = same;
  if (f != 1 || l != (double)(n - 1) * 0.5) fails++;
  if (s != 5 || badread != 0) fails++;
  if (fails) {
    printf("FAIL omp_atomic_read_write %d %f %d %d\n", f, l, s, badread);
    return 1;
  }
  printf("ok omp_atomic_read_write %d %.1f %d\n", f, l, s);
  return 0;
}
