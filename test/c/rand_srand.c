// rand/srand: the same seed reproduces the same sequence, values lie in
// [0, RAND_MAX], different seeds give different sequences, and the mean of
// many scaled draws is near 1/2.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int fails = 0;
  int first[100];
  srand(42);
  for (int i = 0; i < 100; i++)
    first[i] = rand();
  srand(42);
  for (int i = 0; i < 100; i++)
    if (rand() != first[i])
      fails++;
  for (int i = 0; i < 100; i++)
    if (first[i] < 0 || first[i] > RAND_MAX)
      fails++;
  srand(7);
  int same = 0;
  for (int i = 0; i < 100; i++)
    if (rand() == first[i])
      same++;
  if (same > 5) fails++;
  srand(42);
  double mean = 0.0;
  for (int i = 0; i < 10000; i++)
    mean += (double)rand() / (double)RAND_MAX;
  mean /= 10000.0;
  if (mean < 0.48 || mean > 0.52) fails++;
  /* the scaled-weight idiom of the transformer example */
  srand(42);
  float wmax = 0.0f;
  for (int i = 0; i < 1000; i++) {
    float w = ((float)rand() / (float)RAND_MAX - 0.5f) * 0.1f;
    if (w > wmax)
      wmax = w;
    if (w < -0.05f || w > 0.05f)
      fails++;
  }
  if (fails) {
    printf("FAIL rand_srand %d\n", fails);
    return 1;
  }
  printf("ok rand_srand %d %.2f\n", first[0] % 1000, mean);
  return 0;
}
