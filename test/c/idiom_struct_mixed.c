/* Structs whose fields have different types: an array of records (double, int, float,
   char, long) filled and updated in parallel loops, passed by pointer, copied whole, a
   local initialised from a brace list and another from a struct, a global table of them
   with its initialiser; sizeof keeps C's layout. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  double x;
  int id;
  float w;
  char tag;
  long big;
} Item;

struct pair {
  int a;
  double b;
};

static struct pair table[3] = {{1, 0.5}, {2, 1.5}, {-3, -2.25}};

static double weigh(const Item *it, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += it[i].x * it[i].w + it[i].id;
  return s;
}

int main(void) {
  int n = 200;
  Item *items = malloc(n * sizeof(Item));
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    items[i].x = i * 0.5;
    items[i].id = i - 100;
    items[i].w = 2.0f;
    items[i].tag = 'a' + i % 26;
    items[i].big = (1L << 40) + i;
  }
  double s = 0;
  long tags = 0;
#pragma omp parallel for reduction(+: s, tags)
  for (int i = 0; i < n; i++) {
    items[i].x += 1.0;
    s += items[i].id;
    tags += items[i].tag;
  }
  Item local = {2.5, -7, 0.25f, 'z', -3};
  Item copy = local;
  copy.id += 1;
  items[0] = copy;
  struct pair p = table[2];
  long bigs = 0;
  for (int i = 1; i < n; i++)
    bigs += items[i].big - (1L << 40);
  double w = weigh(items, n);
  /* the same sums from the formulas that filled the records */
  double expect_w = 0;
  long expect_tags = 0;
  for (int i = 1; i < n; i++) {
    expect_w += (i * 0.5 + 1.0) * 2.0 + (i - 100);
    expect_tags += 'a' + i % 26;
  }
  expect_w += 2.5 * 0.25 - 6;
  expect_tags += 'a';
  int ok = s == -100.0 && tags == expect_tags && w == expect_w && copy.id == -6 &&
           copy.x == 2.5 && copy.tag == 'z' && copy.big == -3 && items[0].w == 0.25f &&
           p.a == -3 && p.b == -2.25 && bigs == (long)n * (n - 1) / 2 &&
           sizeof(Item) == 32 && sizeof(struct pair) == 16;
  free(items);
  if (!ok) {
    printf("FAIL idiom_struct_mixed %.2f %ld %.2f %d %d %.2f %ld\n", s, tags, w, copy.id, p.a,
           p.b, bigs);
    return 1;
  }
  printf("ok idiom_struct_mixed %.2f %ld %.2f\n", s, tags, w);
  return 0;
}
