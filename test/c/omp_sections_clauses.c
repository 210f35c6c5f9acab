/* Data-sharing clauses on sections: firstprivate copies start from the variable,
   lastprivate takes the lexically last section's value, and a reduction adds every
   section's copy. (Which sections share a thread, and so a copy, is the runtime's
   choice: no section depends on another's changes.) */
#include <stdio.h>

int main(void) {
  int x = -1, base = 10, sum = 0, first = 0, second = 0, third = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp sections lastprivate(x) firstprivate(base) reduction(+: sum)
    {
#pragma omp section
      {
        x = base + 1;
        first = x;
        sum += 1;
      }
#pragma omp section
      {
        x = base + 2;
        second = x;
        sum += 10;
      }
#pragma omp section
      {
        x = base * 3;
        third = x;
        sum += 100;
      }
    }
  }
  int y = 0, total = 0;
#pragma omp parallel sections lastprivate(y) reduction(+: total) num_threads(2)
  {
#pragma omp section
    {
      y = 4;
      total += y;
    }
#pragma omp section
    {
      y = 5;
      total += y;
    }
  }
  int ok = x == 30 && first == 11 && second == 12 && third == 30 && sum == 111 &&
           base == 10 && y == 5 && total == 9;
  if (!ok) {
    printf("FAIL omp_sections_clauses %d %d %d %d %d %d %d %d\n", x, first, second, third, sum,
           base, y, total);
    return 1;
  }
  printf("ok omp_sections_clauses %d %d %d\n", x, sum, total);
  return 0;
}
