// Every libm and libc function a loop body may call, inside a parallel loop: the integer
// absolute values, the double and float libm families, and the classification and
// rounding routines. Each iteration writes its own elements; the sums are exact.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N 64

/* Every double libm routine on one value: called by the parallel loop and by the check. */
static double mix(double v) {
  double r = fabs(v) + floor(v) + ceil(v) + round(v) + trunc(v) + fmax(v, 1.0) + fmin(v, -1.0);
  r += sqrt(fabs(v)) * sqrt(fabs(v)) - fabs(v);
  r += fmod(fabs(v), 2.0) + copysign(1.0, v) + fma(v, 2.0, 1.0) + pow(2.0, 3.0);
  r += hypot(3.0, 4.0) + ldexp(v, 2) + fdim(v, 0.0) + (isnan(v) ? 1.0 : 0.0);
  r += rint(v) + nearbyint(v) + (double)lround(v) + (double)lrint(v);
  return r + exp(0.0) + log(1.0) + sin(0.0) + cos(0.0) + tanh(0.0) + atan2(0.0, 1.0) + cbrt(8.0);
}

/* The float forms. */
static float mixf(float w) {
  return fabsf(w) + floorf(w) + ceilf(w) + fmaxf(w, 0.0f) + fminf(w, 0.0f) + sqrtf(4.0f) +
         powf(2.0f, 2.0f) + truncf(w) + roundf(w) + copysignf(1.0f, w) + fmodf(fabsf(w), 2.0f);
}

int main(void) {
  int ia[N], ib[N];
  long la[N], lb[N];
  long long qa[N], qb[N];
  double x[N], d[N];
  float xf[N], f[N];
  for (int i = 0; i < N; i++) {
    ia[i] = i - N / 2;
    la[i] = (long)(i - N / 2) * 100000L;
    qa[i] = (long long)(i - N / 2) * 10000000000LL;
    x[i] = 0.25 * (i - N / 2);
    xf[i] = 0.5f * (float)(i - N / 2);
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    ib[i] = abs(ia[i]);
    lb[i] = labs(la[i]);
    qb[i] = llabs(qa[i]);
    d[i] = mix(x[i]);
    f[i] = mixf(xf[i]);
  }
  long si = 0, sl = 0;
  long long sq = 0;
  double sd = 0.0;
  double sf = 0.0;
  for (int i = 0; i < N; i++) {
    si += ib[i];
    sl += lb[i];
    sq += qb[i] / 10000000000LL;
    sd += d[i];
    sf += f[i];
  }
  // The integer ones from their definition, the others sequentially.
  long ei = 0, el = 0;
  long long eq = 0;
  double ed = 0.0, ef = 0.0;
  for (int i = 0; i < N; i++) {
    int k = i - N / 2;
    ei += k < 0 ? -k : k;
    el += (k < 0 ? -k : k) * 100000L;
    eq += k < 0 ? -k : k;
    ed += mix(x[i]);
    ef += mixf(xf[i]);
  }
  if (si != ei || sl != el || sq != eq || sd != ed || sf != ef) {
    printf("FAIL omp_libm_calls %ld %ld %lld %.4f %.4f\n", si, sl, sq, sd, sf);
    return 1;
  }
  printf("ok omp_libm_calls %ld %ld %lld %.4f %.4f\n", si, sl, sq, sd, sf);
  return 0;
}
