/* Designated initialisers and compound literals, as C99 programs write them: a struct by
   field names in any order, an array by indices (the rest zero), an array of structs with
   `[i] = {.f = v}`, a struct with an array field designated into, a global table, and
   `a[k] = (T){...}` stored by a parallel loop. */
#include <stdio.h>

typedef struct {
  double x, y;
} Point;

typedef struct {
  int id;
  double w;
  float v[3];
} Item;

static Item table[3] = {[2] = {.id = 7, .v = {1, 2, 3}}, [0] = {.w = 0.5}};

int main(void) {
  Point p = {.y = 1.5, .x = -2};
  int counts[8] = {[3] = 7, 9, [6] = 2};
  Item lone = {.v[1] = 4, .id = 3};
  Point path[16];
  Item items[16];
#pragma omp parallel for
  for (int k = 0; k < 16; k++) {
    path[k] = (Point){.y = k, .x = 2.0 * k};
    items[k] = (Item){k, k * 0.25, {1, 2}};
  }
  double along = 0, weights = 0;
  int ids = 0, counted = 0;
  for (int k = 0; k < 16; k++) {
    along += path[k].x - path[k].y;
    weights += items[k].w + items[k].v[1] + items[k].v[2];
    ids += items[k].id;
  }
  for (int k = 0; k < 8; k++)
    counted += counts[k] * (k + 1);
  int ok = p.x == -2 && p.y == 1.5 && counted == 7 * 4 + 9 * 5 + 2 * 7 && lone.id == 3 &&
           lone.v[0] == 0 && lone.v[1] == 4 && lone.w == 0 && table[2].id == 7 &&
           table[2].v[2] == 3 && table[0].w == 0.5 && table[1].id == 0 && along == 120 &&
           weights == 30 + 32 && ids == 120;
  if (!ok) {
    printf("FAIL idiom_designated_init %g %g %d %g %g %d\n", p.x, p.y, counted, along, weights, ids);
    return 1;
  }
  printf("ok idiom_designated_init %d %g %g\n", counted, along, weights);
  return 0;
}
