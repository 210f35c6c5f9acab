// lastprivate of a local array of fixed size: the copy of the iteration that is last in
// sequential order (the last section) is copied into the array after the construct; with
// firstprivate too, each copy starts from the array's elements (only the last section
// changes it: which thread runs which section, and so which copy a section sees, is the
// runtime's choice).
#include <stdio.h>

int main(void) {
  int last[4] = {-1, -1, -1, -1};
  double both[3] = {0.5, 1.5, 2.5};
  int seen[80];
#pragma omp parallel for lastprivate(last) schedule(dynamic, 3)
  for (int i = 0; i < 80; i++) {
    for (int k = 0; k < 4; k++)
      last[k] = i * 10 + k;
    seen[i] = last[i % 4];
  }
  long grid[2][3];
#pragma omp parallel
  {
#pragma omp for lastprivate(grid)
    for (int i = 0; i < 50; i += 7)
      for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++)
          grid[r][c] = i + r * 100 + c;
  }
  int tags[2] = {0, 0};
#pragma omp parallel sections firstprivate(both) lastprivate(both, tags)
  {
#pragma omp section
    {
      tags[0] = 1;
      tags[1] = 1;
    }
#pragma omp section
    {
      both[1] += 10;
      tags[0] = 2;
      tags[1] = 3;
    }
  }
  int bad = 0;
  for (int k = 0; k < 4; k++)
    bad += last[k] != 790 + k;
  for (int i = 0; i < 80; i++)
    bad += seen[i] != i * 10 + i % 4;
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++)
      bad += grid[r][c] != 49 + r * 100 + c;
  bad += both[0] != 0.5 || both[1] != 11.5 || both[2] != 2.5 || tags[0] != 2 || tags[1] != 3;
  if (bad) {
    printf("FAIL omp_lastprivate_array %d wrong\n", bad);
    return 1;
  }
  printf("ok omp_lastprivate_array last=%d grid=%ld both=%g\n", last[3], grid[1][2], both[1]);
  return 0;
}
