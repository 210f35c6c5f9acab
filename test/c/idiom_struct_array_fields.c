/* Structs with array fields, as particle and small-matrix codes write them: an array of
   bodies (position and velocity vectors, a mass, an id) stepped in parallel loops and read
   through a pointer parameter, a struct with a 2-D field, a global table initialised with
   nested and with elided braces, a whole-struct copy; sizeof keeps C's layout. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double pos[3];
  double vel[3];
  double mass;
  int id;
} Body;

typedef struct {
  int n;
  double m[2][3];
} Block;

static Block blocks[2] = {{2, {{1, 2, 3}, {4, 5, 6}}}, {3, 0.5, 1.5, 2.5}};

static double momentum(const Body *b, int n, int k) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += b[i].mass * b[i].vel[k];
  return s;
}

int main(void) {
  int n = 96;
  Body *bodies = malloc(n * sizeof(Body));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      bodies[i].pos[k] = i + k;
      bodies[i].vel[k] = (i % 4) - k;
    }
    bodies[i].mass = 1 + i % 3;
    bodies[i].id = i;
  }
  for (int step = 0; step < 4; step++) {
#pragma omp parallel for
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 3; k++)
        bodies[i].pos[k] += 0.5 * bodies[i].vel[k];
  }
  long ids = 0;
  double xs = 0;
#pragma omp parallel for reduction(+: ids, xs)
  for (int i = 0; i < n; i++) {
    ids += bodies[i].id;
    xs += bodies[i].pos[0];
  }
  Body keep = bodies[5];
  keep.vel[2] = 100;
  bodies[6] = keep;
  Block local = {7, {{1, 1, 1}, {2, 2, 2}}};
  local.m[1][2] += blocks[0].m[1][2] + blocks[1].m[0][2];
  double px = momentum(bodies, n, 0);

  /* the same values from the formulas that filled the bodies */
  long expect_ids = (long)n * (n - 1) / 2;
  double expect_xs = 0, expect_px = 0;
  for (int i = 0; i < n; i++) {
    expect_xs += i + 4 * 0.5 * (i % 4);
    if (i != 6)
      expect_px += (1 + i % 3) * (i % 4);
  }
  expect_px += (1 + 5 % 3) * (5 % 4); /* body 6 holds a copy of body 5 */
  int ok = ids == expect_ids && xs == expect_xs && px == expect_px &&
           bodies[6].id == 5 && bodies[6].vel[2] == 100 && bodies[5].vel[2] == 5 % 4 - 2 &&
           local.m[1][2] == 2 + 6 + 2.5 && local.n == 7 && blocks[1].m[0][0] == 0.5 &&
           sizeof(Body) == 7 * sizeof(double) + sizeof(double) && sizeof(Block) == 56;
  free(bodies);
  if (!ok) {
    printf("FAIL idiom_struct_array_fields %ld %g %g %g\n", ids, xs, px, local.m[1][2]);
    return 1;
  }
  printf("ok idiom_struct_array_fields %ld %g %g\n", ids, xs, px);
  return 0;
}
