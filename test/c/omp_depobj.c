// Depend objects (OpenMP 5.0): `#pragma omp depobj(o) depend(kind: item)` sets what `o`
// stands for, `update(kind)` changes the kind, `destroy` ends it; `depend(depobj: o)` on a
// task orders it as the item would.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 32

int main(void) {
  int fails = 0;
  int x = 0, y = 0;
  double *a = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    a[i] = 0.0;
  omp_depend_t ox, oy, oa;
#pragma omp depobj(ox) depend(inout: x)
#pragma omp depobj(oy) depend(out: y)
#pragma omp depobj(oa) depend(inout: a[3])
#pragma omp parallel
#pragma omp single
  {
    /* a chain on x through its object, then a read of x with an update to `in` */
    for (int k = 0; k < 10; k++) {
#pragma omp task depend(depobj: ox) shared(x)
      x = x * 2 + 1;
    }
#pragma omp task depend(depobj: oy) depend(in: x) shared(x, y)
    y = x + 5;
    /* objects on an element of an array, mixed with plain items on it */
#pragma omp task depend(depobj: oa)
    a[3] = 1.5;
#pragma omp task depend(inout: a[3])
    a[3] = a[3] * 4.0;
#pragma omp task depend(depobj: oa)
    a[3] = a[3] + 0.25;
  }
#pragma omp depobj(oy) update(in)
  int z = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(depobj: oy) shared(y, z)
    z = y + 1;
#pragma omp task depend(out: y) shared(y)
    y = 100;
  }
#pragma omp depobj(ox) destroy
#pragma omp depobj(oy) destroy
#pragma omp depobj(oa) destroy
  if (x != 1023) fails++;
  if (z != 1029) fails++;
  if (y != 100) fails++;
  if (a[3] != 6.25) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_depobj %d\n", fails);
    return 1;
  }
  printf("ok omp_depobj %d %d %.2f\n", x, z, 6.25);
  return 0;
}
