// Numeric casts between int, long, unsigned, float and double: truncation
// toward zero (also for negatives), exact round trips, large values,
// int -> float rounding, and casts inside expressions.
#include <stdio.h>

int main(void) {
  int fails = 0;
  if ((int)3.99 != 3 || (int)-3.99 != -3) fails++;
  if ((int)2.5f != 2 || (int)-2.5f != -2) fails++;
  if ((long)1e15 != 1000000000000000L) fails++;
  if ((unsigned int)3.7e9 != 3700000000u) fails++;
  if ((float)16777217 != 16777216.0f) fails++; /* rounds to even */
  if ((double)16777217 != 16777217.0) fails++;
  if ((double)(float)0.1 == 0.1) fails++;        /* float loses precision */
  int n = 7;
  double avg = (double)n / 2;  /* 3.5 */
  int iavg = n / 2;            /* 3 */
  if (avg != 3.5 || iavg != 3) fails++;
  float f = (float)n / 4.0f;
  if (f != 1.75f) fails++;
  long sum = 0;
  for (int i = 0; i < 10; i++)
    sum += (long)((float)i * 0.5f); /* 0,0,1,1,2,2,3,3,4,4 */
  if (sum != 20) fails++;
  unsigned char uc = (unsigned char)(int)255.9;
  if (uc != 255) fails++;
  double back = (double)(int)-7.9;
  if (back != -7.0) fails++;
  int from_char = (int)(char)'0' - 48;
  if (from_char != 0) fails++;
  double big = (double)9007199254740993L; /* 2^53 + 1 rounds to 2^53 */
  if (big != 9007199254740992.0) fails++;
  if (fails) {
    printf("FAIL casts_int_float %d\n", fails);
    return 1;
  }
  printf("ok casts_int_float %.2f %d %ld %.3f\n", avg, iavg, sum, f);
  return 0;
}
