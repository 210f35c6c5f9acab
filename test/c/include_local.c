// #include of a local header ("corpus_local.h", found next to this file) and
// of system headers; the header is included twice (include guard).
#include "corpus_local.h"
#include "corpus_local.h"
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  local_real acc = 0.0;
  for (int i = 0; i < LOCAL_N; i++)
    acc += local_poly((local_real)i);
  /* sum 3 i^2 + 2 i + 1 for i < 8: 3*140 + 2*28 + 8 = 484 */
  int value = (int)acc + local_offset;
  if (value != 584) {
    printf("FAIL include_local %d\n", value);
    return 1;
  }
  printf("ok include_local %d\n", value);
  return 0;
}
