// printf conversions: %d %i %u %ld %lu %lld %x %X %o %c %s %f %e %g %%, field
// widths, precision, flags (- + 0 space) and %zu; each call's return value
// (characters written) is checked.  Prints several lines; the last one is
// the ok/FAIL line.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int n;
  n = printf("[%d|%i|%u]\n", -42, 17, 4000000000u);
  if (n != 20) fails++;
  n = printf("[%ld|%lu|%lld]\n", -9000000000L, 18000000000UL, 123456789012LL);
  if (n != 39) fails++;
  n = printf("[%x|%X|%o|%#x]\n", 255, 48879, 8, 16);
  if (n != 18) fails++;
  n = printf("[%c%c|%s]\n", 'o', 'k', "text");
  if (n != 10) fails++;
  n = printf("[%f|%.2f|%8.3f|%-8.1f|%+.1f]\n", 3.14159, 2.71828, 1.5, 2.25, 7.0);
  if (n != 39) fails++;
  n = printf("[%e|%.3E|%g|%g]\n", 12345.678, 0.000123, 0.0001, 1e20);
  if (n != 38) fails++;
  n = printf("[%5d|%-5d|%05d|% d|%%]\n", 42, 42, 42, 42);
  if (n != 26) fails++;
  n = printf("[%zu|%.3s|%10s]\n", sizeof(double), "abcdef", "right");
  if (n != 19) fails++;
  float f = 0.5f;
  n = printf("[%f|%.1f]\n", f, (double)f * 3); /* float promoted to double */
  if (n != 15) fails++;
  if (fails) {
    printf("FAIL printf_formats %d\n", fails);
    return 1;
  }
  printf("ok printf_formats %d\n", 9);
  return 0;
}
