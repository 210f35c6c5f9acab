/* Structs with struct fields, as particle and mesh codes write them: `p[i].pos.x`, a
   struct field assigned from another (`p[i].vel = start.vel`) and from a compound literal,
   nested brace initialisers (a global table and a local), fields of different types around
   the nested ones, read and written in parallel loops. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x, y;
} vec2;

typedef struct {
  vec2 pos;
  vec2 vel;
  int id;
  float mass;
} particle;

typedef struct {
  vec2 lo, hi;
} box;

static const box regions[3] = {{{0, 0}, {1, 1}}, {{1, 0}, {2, 1}}, {{0, 1}, {2, 3}}};

int main(void) {
  int n = 400;
  particle *p = malloc(n * sizeof(particle));
  particle start = {{0.5, -0.5}, {1.0, 2.0}, 7, 1.5f};
  for (int i = 0; i < n; i++) {
    p[i].pos.x = i * 0.01;
    p[i].pos.y = (i % 17) * 0.1;
    p[i].vel = start.vel;
    if (i % 3 == 0)
      p[i].vel = (vec2){-1.0, 0.25 * (i % 4)};
    p[i].id = i;
    p[i].mass = 1.0f + (i % 5);
  }
  double energy = 0;
#pragma omp parallel for reduction(+: energy)
  for (int i = 0; i < n; i++) {
    p[i].pos.x += 0.1 * p[i].vel.x;
    p[i].pos.y += 0.1 * p[i].vel.y;
    energy += 0.5 * p[i].mass * (p[i].vel.x * p[i].vel.x + p[i].vel.y * p[i].vel.y);
  }
  int inside[3] = {0, 0, 0};
#pragma omp parallel for reduction(+: inside[:3])
  for (int i = 0; i < n; i++)
    for (int r = 0; r < 3; r++)
      if (p[i].pos.x >= regions[r].lo.x && p[i].pos.x < regions[r].hi.x &&
          p[i].pos.y >= regions[r].lo.y && p[i].pos.y < regions[r].hi.y)
        inside[r] += 1;
  box b = regions[2];
  vec2 last = p[n - 1].pos;
  int ok = start.id == 7 && p[9].vel.x == -1.0 && p[10].vel.y == 2.0 && b.hi.y == 3 &&
           p[n - 1].id == n - 1;
  free(p);
  if (!ok) {
    printf("FAIL idiom_nested_struct\n");
    return 1;
  }
  printf("ok idiom_nested_struct energy=%.4f inside=%d,%d,%d last=%.3f,%.3f\n", energy,
         inside[0], inside[1], inside[2], last.x, last.y);
  return 0;
}
