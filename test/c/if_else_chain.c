// if / else if / else chains, nested ifs, dangling else, if without braces,
// conditions on doubles and on integer values (non-zero is true).
#include <stdio.h>

static int classify(int x) {
  if (x < 0)
    return -1;
  else if (x == 0)
    return 0;
  else if (x < 10)
    return 1;
  else if (x < 100)
    return 2;
  else
    return 3;
}

int main(void) {
  int fails = 0;
  int hist[5] = {0, 0, 0, 0, 0};
  for (int x = -5; x < 150; x += 5)
    hist[classify(x) + 1]++;
  /* -5 | 0 | 5 | 10..95 (18) | 100..145 (10) */
  if (hist[0] != 1 || hist[1] != 1 || hist[2] != 1 || hist[3] != 18 || hist[4] != 10)
    fails++;
  int a = 1;
  int b = 0;
  int r = 0;
  if (a)
    if (b)
      r = 1;
    else /* binds to the inner if */
      r = 2;
  if (r != 2) fails++;
  double t = 0.75;
  int bucket;
  if (t < 0.25) {
    bucket = 0;
  } else if (t < 0.5) {
    bucket = 1;
  } else {
    if (t < 0.75)
      bucket = 2;
    else
      bucket = 3;
  }
  if (bucket != 3) fails++;
  int nonzero = 0;
  for (int i = -2; i <= 2; i++)
    if (i)
      nonzero++;
  if (nonzero != 4) fails++;
  if (fails) {
    printf("FAIL if_else_chain %d\n", fails);
    return 1;
  }
  printf("ok if_else_chain %d %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3], hist[4]);
  return 0;
}
