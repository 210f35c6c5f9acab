/* omp atomic on fields of structs whose fields have different types: a counter, a sum and
   a captured ticket of one record, and a field of records in an array, each updated by
   every iteration of parallel loops; the totals are exact. */
#include <stdio.h>

typedef struct {
  int count;
  double sum;
  long last;
} Acc;

int main(void) {
  int fails = 0;
  Acc acc = {0, 0.0, 0};
  Acc bins[4] = {{0, 0.0, 0}, {0, 0.0, 0}, {0, 0.0, 0}, {0, 0.0, 0}};
  int tickets[200];
#pragma omp parallel for
  for (int i = 0; i < 200; i++) {
#pragma omp atomic
    acc.count++;
#pragma omp atomic update
    acc.sum += 0.5;
    long mine;
#pragma omp atomic capture
    mine = acc.last++;
    tickets[i] = (int)mine;
#pragma omp atomic
    bins[i % 4].count += 2;
  }
  int seen[200] = {0};
  for (int i = 0; i < 200; i++)
    if (tickets[i] >= 0 && tickets[i] < 200) seen[tickets[i]]++;
  for (int i = 0; i < 200; i++)
    if (seen[i] != 1) fails++;
  if (acc.count != 200 || acc.sum != 100.0 || acc.last != 200) fails++;
  for (int b = 0; b < 4; b++)
    if (bins[b].count != 100) fails++;
  if (fails) {
    printf("FAIL omp_atomic_struct_fields %d: %d %f %ld\n", fails, acc.count, acc.sum, acc.last);
    return 1;
  }
  printf("ok omp_atomic_struct_fields %d %.1f %ld\n", acc.count, acc.sum, acc.last);
  return 0;
}
