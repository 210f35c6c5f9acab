// Nested loops: triangular and dependent bounds, a 3-deep loop nest with
// mixed loop kinds, a loop nest over a malloc'd 2-D array, inner loops whose
// bounds depend on two outer indices.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int fails = 0;
  long tri = 0;
  for (int i = 0; i < 50; i++)
    for (int j = 0; j <= i; j++)
      tri += j;
  /* sum_i i(i+1)/2 for i < 50 = 20825 */
  if (tri != 20825) fails++;
  int count = 0;
  for (int i = 0; i < 8; i++)
    for (int j = i; j < 8; j++)
      for (int k = j; k < 8; k++)
        count++;
  /* multisets of size 3 from 8: C(10,3) = 120 */
  if (count != 120) fails++;
  int n = 6;
  double **p = (double **)malloc(n * sizeof(double *));
  for (int i = 0; i < n; i++)
    p[i] = (double *)malloc(n * sizeof(double));
  /* Pascal's triangle in the lower half */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      p[i][j] = (j == 0 || j == i) ? 1.0 : 0.0;
  for (int i = 2; i < n; i++)
    for (int j = 1; j < i; j++)
      p[i][j] = p[i - 1][j - 1] + p[i - 1][j];
  double row5 = 0.0;
  for (int j = 0; j < n; j++)
    row5 += p[5][j];
  if (row5 != 32.0 || p[5][2] != 10.0) fails++;
  for (int i = 0; i < n; i++)
    free(p[i]);
  free(p);
  int w = 0;
  int i = 0;
  while (i < 4) {
    int j = 0;
    do {
      for (int k = 0; k < i + j; k++)
        w++;
      j++;
    } while (j < 3);
    i++;
  }
  /* sum over i<4, j<3 of i + j = 3*6 + 4*3 = 30 */
  if (w != 30) fails++;
  if (fails) {
    printf("FAIL nested_loops %d\n", fails);
    return 1;
  }
  printf("ok nested_loops %ld %d %.0f %d\n", tri, count, row5, w);
  return 0;
}
