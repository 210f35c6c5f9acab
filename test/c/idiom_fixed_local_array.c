// STREAM idiom: a local fixed-size array `double t[NTIMES]` recording a
// per-repetition value, min initialized to FLT_MAX and DBL_MAX, then
// min / max / average over the repetitions of parallel-for kernels
// (copy, scale, add).  Here t[k] is an exact checksum of the arrays
// instead of a time, so the min / avg are checked against closed forms.
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#define NTIMES 6
#define N 8000

static double a[N], b[N], c[N];

int main(void) {
  int fails = 0;
  double t[NTIMES];
  for (int i = 0; i < N; i++) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.0;
  }
  for (int k = 0; k < NTIMES; k++) {
#pragma omp parallel for
    for (int i = 0; i < N; i++)
      c[i] = a[i];
#pragma omp parallel for
    for (int i = 0; i < N; i++)
      b[i] = 3.0 * c[i];
#pragma omp parallel for
    for (int i = 0; i < N; i++)
      a[i] = b[i] + c[i] - (double)k;
    t[k] = a[N - 1] + a[0];
  }
  double mint = DBL_MAX;
  float fmin = FLT_MAX;
  double maxt = 0.0;
  double avg = 0.0;
  for (int k = 1; k < NTIMES; k++) { /* skip the first, as STREAM does */
    if (t[k] < mint) mint = t[k];
    if ((float)t[k] < fmin) fmin = (float)t[k];
    if (t[k] > maxt) maxt = t[k];
    avg += t[k];
  }
  avg = avg / (double)(NTIMES - 1);
  /* a_{k+1} = 4 a_k - k, a_0 = 1: 4, 15, 58, 229, 912, 3643 */
  double e[NTIMES];
  double ak = 1.0;
  for (int k = 0; k < NTIMES; k++) {
    ak = 4.0 * ak - (double)k;
    e[k] = 2.0 * ak;
  }
  for (int k = 0; k < NTIMES; k++)
    if (t[k] != e[k]) fails++;
  if (mint != 30.0 || fmin != 30.0f || maxt != 7286.0) fails++;
  if (avg != (30.0 + 116.0 + 458.0 + 1824.0 + 7286.0) / 5.0) fails++;
  if (fails) {
    printf("FAIL idiom_fixed_local_array %d %f %f %f\n", fails, mint, maxt, avg);
    return 1;
  }
  printf("ok idiom_fixed_local_array %.1f %.1f %.1f\n", mint, maxt, avg);
  return 0;
}
