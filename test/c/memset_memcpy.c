// memset (zero and byte patterns) and memcpy (whole buffers and rows of a
// pointer-of-pointer matrix) on malloc'd and local arrays.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int fails = 0;
  int n = 64;
  float *a = (float *)malloc(n * sizeof(float));
  float *b = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++)
    a[i] = (float)i * 0.5f;
  memcpy(b, a, n * sizeof(float));
  for (int i = 0; i < n; i++)
    if (b[i] != a[i])
      fails++;
  memset(a, 0, n * sizeof(float));
  for (int i = 0; i < n; i++)
    if (a[i] != 0.0f)
      fails++;
  int ints[16];
  memset(ints, 0xFF, sizeof(ints)); /* every byte 0xFF: every int is -1 */
  int s = 0;
  for (int i = 0; i < 16; i++)
    s += ints[i];
  if (s != -16) fails++;
  unsigned char bytes[8];
  memset(bytes, 7, 8);
  if (bytes[0] != 7 || bytes[7] != 7) fails++;
  double **m = (double **)malloc(3 * sizeof(double *));
  for (int i = 0; i < 3; i++) {
    m[i] = (double *)malloc(4 * sizeof(double));
    for (int j = 0; j < 4; j++)
      m[i][j] = i * 4 + j;
  }
  memcpy(m[0], m[2], 4 * sizeof(double)); /* copy a row */
  double rs = 0.0;
  for (int j = 0; j < 4; j++)
    rs += m[0][j];
  if (rs != 38.0) fails++;
  double local[4];
  memcpy(local, m[1], sizeof(local));
  if (local[3] != 7.0) fails++;
  float bsum = 0.0f;
  for (int i = 0; i < n; i++)
    bsum += b[i];
  for (int i = 0; i < 3; i++)
    free(m[i]);
  free(m);
  free(a);
  free(b);
  if (fails) {
    printf("FAIL memset_memcpy %d\n", fails);
    return 1;
  }
  printf("ok memset_memcpy %.1f %d %.1f\n", bsum, s, rs);
  return 0;
}
