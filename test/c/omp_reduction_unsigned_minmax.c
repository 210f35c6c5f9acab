// reduction(max : umax) and reduction(min : umin) on unsigned int, with
// values spread over the whole 32-bit range, many above 2^31 (they would
// be negative if compared as signed int).  Reference from a sequential
// scan; the min and max are also checked against known planted values.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 30000;
  int fails = 0;
  unsigned int *a = (unsigned int *)malloc(n * sizeof(unsigned int));
  for (int i = 0; i < n; i++)
    a[i] = 0x10000000u + ((unsigned int)i * 2654435761u) % 0xD0000000u;
  a[n / 2] = 0xFFFFFFF0u; /* largest, above 2^31 */
  a[n / 5] = 7u;          /* smallest */
  unsigned int umax = 0u;
  unsigned int umin = 0xFFFFFFFFu;
#pragma omp parallel for reduction(max : umax) reduction(min : umin)
  for (int i = 0; i < n; i++) {
    if (a[i] > umax) umax = a[i];
    if (a[i] < umin) umin = a[i];
  }
  unsigned int emax = a[0], emin = a[0];
  int above = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] > emax) emax = a[i];
    if (a[i] < emin) emin = a[i];
    if (a[i] > 0x80000000u) above++;
  }
  if (umax != emax || umin != emin) fails++;
  if (umax != 0xFFFFFFF0u || umin != 7u) fails++;
  if (above < n / 4) fails++;
  free(a);
  if (fails) {
    printf("FAIL omp_reduction_unsigned_minmax %u %u %u %u\n", umax, emax,
           umin, emin);
    return 1;
  }
  printf("ok omp_reduction_unsigned_minmax %u %u %d\n", umax, umin, above);
  return 0;
}
