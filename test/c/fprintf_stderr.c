// fprintf(stderr, ...) for diagnostics: returns the number of characters
// written; stdout gets only the ok line.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int n = fprintf(stderr, "diagnostic: %d items, %.2f done\n", 3, 0.5);
  if (n != 31) fails++;
  double worst = 0.0;
  for (int i = 0; i < 3; i++) {
    double e = i * 0.25;
    if (e > worst)
      worst = e;
    fprintf(stderr, "step %d error %.3f\n", i, e);
  }
  if (worst != 0.5) fails++;
  if (fails) {
    fprintf(stderr, "fprintf_stderr failed\n");
    printf("FAIL fprintf_stderr %d\n", fails);
    return 1;
  }
  printf("ok fprintf_stderr %d\n", n);
  return 0;
}
