// An ordered block reading the element of a local array its iteration wrote before the block.
#include <stdio.h>

#define N 40

int main(void)
{
  int a[N];
  long run = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < N; i++) {
    a[i] = (i * 7) % 13 - 6;
#pragma omp ordered
    {
      run = (run * 3 + a[i]) % 1000003;
    }
  }
  long sum = 0;
  for (int i = 0; i < N; i++) {
    sum += a[i];
  }
  printf("run %ld sum %ld\n", run, sum);
  return 0;
}
