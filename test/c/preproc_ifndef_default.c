// Size defaults with #ifndef (overridable with -D), #if / #elif / #else with
// defined(), and arithmetic in #if conditions.
#include <stdio.h>

#ifndef SIZE
#define SIZE 16
#endif

#ifndef MODE
#define MODE 2
#endif

#if MODE == 1
#define FACTOR 10
#elif MODE == 2
#define FACTOR 20
#else
#define FACTOR 30
#endif

#if defined(SIZE) && SIZE > 8
#define BIG 1
#else
#define BIG 0
#endif

#ifdef NOT_DEFINED_ANYWHERE
#error "this branch must be skipped"
#endif

int main(void) {
  int data[SIZE];
  for (int i = 0; i < SIZE; i++)
    data[i] = i * FACTOR;
  long total = 0;
  for (int i = 0; i < SIZE; i++)
    total += data[i];
  long expected = (long)FACTOR * SIZE * (SIZE - 1) / 2;
  if (total != expected || BIG != (SIZE > 8)) {
    printf("FAIL preproc_ifndef_default %ld %ld\n", total, expected);
    return 1;
  }
  printf("ok preproc_ifndef_default %ld\n", total);
  return 0;
}
