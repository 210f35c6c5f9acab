// A reduction on one element of an array (`reduction(+: acc[1])`, which gcc reads as the
// section acc[1:1]) on a parallel for and on a for inside a region, and on an element of
// heap memory through a pointer; the other elements are not the loop's to touch.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  double acc[4] = {1.0, 2.0, 3.0, 4.0};
  long *hits = calloc(3, sizeof(long));
  int n = 900;
#pragma omp parallel for reduction(+: acc[1])
  for (int i = 0; i < n; i++)
    acc[1] += (i % 10) * 0.5;
#pragma omp parallel
  {
#pragma omp for reduction(max: acc[3]) reduction(+: hits[2])
    for (int i = 0; i < n; i++) {
      if (i % 37 > acc[3])
        acc[3] = i % 37;
      hits[2] += i % 3 == 0;
    }
  }
  int ok = acc[0] == 1.0 && acc[1] == 2.0 + 90 * 22.5 && acc[2] == 3.0 && acc[3] == 36 &&
           hits[0] == 0 && hits[1] == 0 && hits[2] == 300;
  if (!ok) {
    printf("FAIL omp_reduction_element %g %g %g %ld\n", acc[1], acc[2], acc[3], hits[2]);
    free(hits);
    return 1;
  }
  printf("ok omp_reduction_element %g %g %ld\n", acc[1], acc[3], hits[2]);
  free(hits);
  return 0;
}
