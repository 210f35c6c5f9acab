// RUN: not carts cgeist %s -S -fopenmp -DTARGET 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not carts cgeist %s -S -DTARGET 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not carts cgeist %s -S -fopenmp -DDEPEND 2>&1 | FileCheck %s --check-prefix=DEPEND
// RUN: not carts cgeist %s -S -fopenmp -DLINEAR 2>&1 | FileCheck %s --check-prefix=CLAUSE
// RUN: not carts cgeist %s -S -fopenmp -DWHILE 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not carts cgeist %s -S -fopenmp -DTEAMS 2>&1 | FileCheck %s --check-prefix=TEAMS
// RUN: not carts cgeist %s -S -fopenmp -DSECTION_REDUCTION 2>&1 | FileCheck %s --check-prefix=SECTION

// OpenMP outside the subset is an error at the pragma, with or without -fopenmp.

int main(void) {
  int x = 0;
  int a[8];
#ifdef TARGET
#pragma omp parallel
  {
    // TARGET: unsupported-omp.c:[[@LINE+1]]:1: error: unsupported C construct: omp target
#pragma omp target
    x += 42;
  }
#endif
#ifdef DEPEND
  // DEPEND: unsupported-omp.c:[[@LINE+1]]:1: error: depend(depobj: x): 'x' was not initialised by a '#pragma omp depobj(x) depend(kind: item)' before
#pragma omp task depend(depobj: x)
  x = 42;
#endif
#ifdef LINEAR
  // CLAUSE: unsupported-omp.c:[[@LINE+1]]:1: error: unsupported C construct: linear on a collapsed loop nest or with a modifier (a linear integer variable of one loop is supported)
#pragma omp parallel for collapse(2) linear(x)
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      x++;
#endif
#ifdef WHILE
  // LOOP: unsupported-omp.c:[[@LINE+1]]:1: error: '#pragma omp parallel for' must be followed by a for loop
#pragma omp parallel for
  while (x < 8)
    x++;
#endif
#ifdef SECTION_REDUCTION
  int m[4][4];
  // SECTION: unsupported-omp.c:[[@LINE+1]]:1: error: unsupported C construct: array-section reduction on 'm' (a 1-D array or a pointer is supported)
#pragma omp parallel for reduction(+: m[0:2])
  for (int i = 0; i < 64; i++)
    m[i % 2][0] += i;
#endif
#ifdef TEAMS
#pragma omp parallel
  {
    // TEAMS: unsupported-omp.c:[[@LINE+1]]:1: error: unsupported C construct: omp teams
#pragma omp teams
    x++;
  }
#endif
  return x + a[0];
}
