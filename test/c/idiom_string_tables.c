/* Reporting tables as benchmark drivers write them: a brace-initialised local array of
   labels, a local array of pointers to the arrays being timed, a label picked at run time
   into a 'const char *' assigned after its declaration. */
#include <stdio.h>
#include <string.h>

#define N 4000
static double a[N], b[N], c[N];

static const char *grade(double v) {
  const char *g = "small";
  if (v > 1.0e4) g = "large";
  return g;
}

int main(void) {
  const char *label[4] = {"Copy:  ", "Scale: ", "Add:   ", "Triad: "};
  double *arrays[3] = {a, b, c};
  double bytes[4] = {2 * sizeof(double) * N, 2 * sizeof(double) * N,
                     3 * sizeof(double) * N, 3 * sizeof(double) * N};
  double sums[4];
  const char *widest = label[0];
  int j, k;

#pragma omp parallel for
  for (j = 0; j < N; j++) {
    a[j] = 1.0 + j % 7;
    b[j] = 2.0;
    c[j] = 0.0;
  }
  for (k = 0; k < 4; k++) {
#pragma omp parallel for
    for (j = 0; j < N; j++) {
      if (k == 0) c[j] = a[j];
      else if (k == 1) b[j] = 3.0 * c[j];
      else if (k == 2) c[j] = a[j] + b[j];
      else a[j] = b[j] + 3.0 * c[j];
    }
    sums[k] = 0;
    for (j = 0; j < N; j++) sums[k] += arrays[k % 3][j];
    if (bytes[k] > bytes[0]) widest = label[k];
  }
  /* the same sums, element by element, without the tables */
  double expect[4] = {0, 0, 0, 0};
  for (j = 0; j < N; j++) {
    double a0 = 1.0 + j % 7, c1 = a0, b2 = 3.0 * c1, c3 = a0 + b2;
    expect[0] += a0;
    expect[1] += b2;
    expect[2] += c3;
    expect[3] += b2 + 3.0 * c3;
  }
  int bad = strcmp(widest, "Triad: ") != 0 || strlen(label[3]) != 7;
  for (k = 0; k < 4; k++) {
    bad |= sums[k] != expect[k];
    bad |= strcmp(grade(sums[k]), "large") != 0;
  }
  bad |= strcmp(grade(1.0), "small") != 0;
  if (bad) {
    printf("FAIL idiom_string_tables %s %.1f %.1f %.1f %.1f\n", widest, sums[0], sums[1],
           sums[2], sums[3]);
    return 1;
  }
  printf("ok idiom_string_tables %s%.1f %s%.1f\n", label[0], sums[0], label[3], sums[3]);
  return 0;
}
