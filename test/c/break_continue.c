// break and continue in for, while and do/while loops, in nested loops
// (break leaves only the innermost loop), and continue skipping the rest of
// the body including a later increment.
#include <stdio.h>

int main(void) {
  int fails = 0;
  int s = 0;
  for (int i = 0; i < 100; i++) {
    if (i % 3 == 0)
      continue;
    if (i > 20)
      break;
    s += i; /* 1 2 4 5 7 8 10 11 13 14 16 17 19 20 */
  }
  if (s != 147) fails++;
  int pairs = 0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++) {
      if (j > i)
        break; /* inner only */
      if ((i + j) % 2)
        continue;
      pairs++;
    }
  /* pairs (i, j), j <= i, i + j even: 30 */
  if (pairs != 30) fails++;
  int w = 0;
  int visited = 0;
  while (1) {
    w++;
    if (w % 2 == 0)
      continue;
    visited++;
    if (w >= 15)
      break;
  }
  if (w != 15 || visited != 8) fails++;
  int d = 0;
  int dcount = 0;
  do {
    d++;
    if (d == 3)
      continue; /* jumps to the condition test */
    dcount++;
  } while (d < 6);
  if (d != 6 || dcount != 5) fails++;
  /* first prime above 1000 via break */
  int prime = 0;
  for (int c = 1001; c < 2000; c += 2) {
    int is_prime = 1;
    for (int k = 3; k * k <= c; k += 2)
      if (c % k == 0) {
        is_prime = 0;
        break;
      }
    if (is_prime) {
      prime = c;
      break;
    }
  }
  if (prime != 1009) fails++;
  if (fails) {
    printf("FAIL break_continue %d\n", fails);
    return 1;
  }
  printf("ok break_continue %d %d %d %d\n", s, pairs, visited, prime);
  return 0;
}
