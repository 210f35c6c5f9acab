// Local fixed-size 2-D arrays: nested initialisers, fill loops, a 4x4 matrix
// product, a transpose, and a 3-D local array.
#include <stdio.h>

#define M 4

int main(void) {
  int a[M][M];
  int id[M][M] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
  int c[M][M];
  double t[2][3] = {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}};
  double tt[3][2];
  int cube[2][3][4];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      a[i][j] = i * M + j;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      c[i][j] = 0;
      for (int k = 0; k < M; k++)
        c[i][j] += a[i][k] * id[k][j];
    }
  int fails = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      if (c[i][j] != a[i][j]) fails++;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      tt[j][i] = t[i][j];
  if (tt[2][1] != 6.0 || tt[0][1] != 4.0 || tt[1][0] != 2.0) fails++;
  int s = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 4; k++) {
        cube[i][j][k] = i + j + k;
        s += cube[i][j][k];
      }
  /* 12*(0+1) + 8*(0+1+2) + 6*(0+1+2+3) = 12 + 24 + 36 */
  if (s != 72) fails++;
  /* a squared: trace of a*a */
  int tr = 0;
  for (int i = 0; i < M; i++)
    for (int k = 0; k < M; k++)
      tr += a[i][k] * a[k][i];
  if (tr != 1060) fails++;
  if (fails) {
    printf("FAIL local_array_2d %d\n", fails);
    return 1;
  }
  printf("ok local_array_2d %d %d\n", s, tr);
  return 0;
}
