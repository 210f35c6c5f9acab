// Rows of 2-D and 3-D char arrays passed as strings: labels written with snprintf by a
// parallel loop (each iteration its own row), copied over with strcpy, measured with strlen
// and printed; each row is the address of its first character.
#include <stdio.h>
#include <string.h>

int main(void) {
  char label[48][16];
  int lens[48];
#pragma omp parallel for
  for (int i = 0; i < 48; i++) {
    snprintf(label[i], sizeof label[i], "row%03d", i * 7);
    lens[i] = (int)strlen(label[i]);
  }
  strcpy(label[5], "five");
  char grid[2][3][8];
  snprintf(grid[1][2], sizeof grid[1][2], "g%d", 12);
  long sum = 0, digits = 0;
  for (int i = 0; i < 48; i++) {
    sum += lens[i] + (long)strlen(label[i]);
    if (i != 5)
      digits += label[i][3] - '0';
  }
  long expect_digits = 0;
  for (int i = 0; i < 48; i++)
    if (i != 5)
      expect_digits += i * 7 / 100;
  int ok = sum == 48 * 6 + 47 * 6 + 4 && digits == expect_digits &&
           strcmp(label[47], "row329") == 0 && strcmp(grid[1][2], "g12") == 0;
  if (!ok) {
    printf("FAIL omp_char_rows %ld %ld %s %s\n", sum, digits, label[47], grid[1][2]);
    return 1;
  }
  printf("ok omp_char_rows %s %s %s %ld\n", label[0], label[5], grid[1][2], sum);
  return 0;
}
