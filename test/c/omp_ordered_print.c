// An ordered block that prints the iteration number, followed in the loop body by an
// update of the iteration's own element computed after the block: the lines come out in
// iteration order and every element is updated once.
#include <stdio.h>

int main(void) {
  double a[8];
  for (int i = 0; i < 8; i++)
    a[i] = i;
#pragma omp parallel for ordered
  for (int i = 0; i < 8; i++) {
#pragma omp ordered
    printf("%d\n", i);
    a[i] = a[i] * 2.0;
  }
  double s = 0.0;
  for (int i = 0; i < 8; i++)
    s += a[i];
  if (s != 56.0 || a[7] != 14.0) {
    printf("FAIL omp_ordered_print %.1f %.1f\n", s, a[7]);
    return 1;
  }
  printf("ok omp_ordered_print %.1f %.1f\n", s, a[7]);
  return 0;
}
