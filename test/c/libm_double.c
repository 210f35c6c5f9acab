// The double-precision libm functions: sqrt exp pow fabs cos sin tanh log
// fmax fmin, checked through identities, plus a Taylor-series evaluation of
// exp and sin compared with the library.
#include <math.h>
#include <stdio.h>

int main(void) {
  int fails = 0;
  if (sqrt(144.0) != 12.0 || fabs(-0.125) != 0.125) fails++;
  if (fmax(3.0, 4.0) != 4.0 || fmin(3.0, 4.0) != 3.0) fails++;
  if (pow(2.0, 20.0) != 1048576.0 || fabs(pow(27.0, 1.0 / 3.0) - 3.0) > 1e-14) fails++;
  double worst = 0.0;
  for (int i = -40; i <= 40; i++) {
    double x = i * 0.1;
    /* Taylor series of exp and sin to many terms */
    double term = 1.0;
    double ex = 1.0;
    for (int k = 1; k < 40; k++) {
      term *= x / k;
      ex += term;
    }
    double sterm = x;
    double sx = x;
    for (int k = 1; k < 20; k++) {
      sterm *= -x * x / ((2.0 * k) * (2.0 * k + 1.0));
      sx += sterm;
    }
    double e = fabs(ex - exp(x)) / exp(x);
    e = fmax(e, fabs(sx - sin(x)));
    e = fmax(e, fabs(cos(x) * cos(x) + sin(x) * sin(x) - 1.0));
    e = fmax(e, fabs(tanh(x) - (exp(x) - exp(-x)) / (exp(x) + exp(-x))));
    e = fmax(e, fabs(log(exp(x)) - x));
    worst = fmax(worst, e);
  }
  if (worst > 1e-12) fails++;
  if (fails) {
    printf("FAIL libm_double %d %g\n", fails, worst);
    return 1;
  }
  printf("ok libm_double %.10f %.10f %.10f %.10f\n", sin(1.0), exp(1.0), log(2.0),
         sqrt(2.0));
  return 0;
}
