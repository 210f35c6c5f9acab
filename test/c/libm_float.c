// The single-precision libm functions the front end maps: sqrtf expf powf
// fabsf cosf sinf tanhf logf fmaxf fminf, checked through identities with a
// tolerance (and exact results where IEEE guarantees them).
#include <math.h>
#include <stdio.h>

static int close_f(float a, float b, float tol) { return fabsf(a - b) <= tol; }

int main(void) {
  int fails = 0;
  if (sqrtf(16.0f) != 4.0f || sqrtf(2.0f) * sqrtf(2.0f) - 2.0f > 1e-6f) fails++;
  if (fabsf(-3.5f) != 3.5f || fabsf(2.0f) != 2.0f) fails++;
  if (fmaxf(1.0f, -2.0f) != 1.0f || fminf(1.0f, -2.0f) != -2.0f) fails++;
  if (powf(2.0f, 10.0f) != 1024.0f || !close_f(powf(9.0f, 0.5f), 3.0f, 1e-6f)) fails++;
  float worst = 0.0f;
  for (int i = -20; i <= 20; i++) {
    float x = (float)i * 0.25f;
    float s = sinf(x);
    float c = cosf(x);
    float e = fabsf(s * s + c * c - 1.0f);            /* sin^2 + cos^2 = 1 */
    float t = tanhf(x);
    float t2 = (expf(2.0f * x) - 1.0f) / (expf(2.0f * x) + 1.0f);
    e = fmaxf(e, fabsf(t - t2));                       /* tanh from exp */
    e = fmaxf(e, fabsf(logf(expf(x)) - x));            /* log(exp(x)) = x */
    e = fmaxf(e, fabsf(sinf(-x) + s));                 /* sin is odd */
    worst = fmaxf(worst, e);
  }
  if (worst > 1e-5f) fails++;
  if (!close_f(logf(1.0f), 0.0f, 0.0f) || !close_f(expf(0.0f), 1.0f, 0.0f)) fails++;
  if (!close_f(sqrtf(expf(2.0f)), expf(1.0f), 1e-5f)) fails++;
  if (fails) {
    printf("FAIL libm_float %d %g\n", fails, (double)worst);
    return 1;
  }
  printf("ok libm_float %.4f %.4f %.4f %.4f\n", (double)sinf(1.0f), (double)expf(1.0f),
         (double)tanhf(0.5f), (double)logf(10.0f));
  return 0;
}
