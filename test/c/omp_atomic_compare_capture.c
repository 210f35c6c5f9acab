/* atomic compare capture: the value x had before a conditional update, or the value it
   has after, kept in v by the same atomic operation (a running minimum whose captures
   count the updates that won, a claim by compare-and-swap). */
#include <stdio.h>

#define N 400

int main(void) {
  int data[N];
  for (int i = 0; i < N; i++) data[i] = (i * 7919) % 1009;
  int low = 100000, wins = 0, owner = -1, claims = 0;
  double top = -1.0;
  int after_min[N];
#pragma omp parallel for reduction(+: wins, claims)
  for (int i = 0; i < N; i++) {
    int before, now, prev;
    double seen;
#pragma omp atomic compare capture
    {
      before = low;
      if (data[i] < low) { low = data[i]; }
    }
    wins += data[i] < before;
#pragma omp atomic compare capture
    {
      low = data[i] < low ? data[i] : low;
      now = low;
    }
    after_min[i] = now <= data[i];
#pragma omp atomic compare capture
    {
      prev = owner;
      if (owner == -1) { owner = i; }
    }
    claims += prev == -1;
#pragma omp atomic compare capture
    {
      if (top < data[i] * 0.5) { top = data[i] * 0.5; }
      seen = top;
    }
    after_min[i] &= seen >= data[i] * 0.5;
  }
  int expect_low = data[0], expect_top = data[0], all = 1;
  for (int i = 0; i < N; i++) {
    if (data[i] < expect_low) expect_low = data[i];
    if (data[i] > expect_top) expect_top = data[i];
    all &= after_min[i];
  }
  int ok = low == expect_low && top == expect_top * 0.5 && claims == 1 && owner >= 0 &&
           owner < N && wins >= 1 && all;
  if (!ok) {
    printf("FAIL omp_atomic_compare_capture %d %.1f %d %d %d %d\n", low, top, claims, owner, wins, all);
    return 1;
  }
  printf("ok omp_atomic_compare_capture %d %.1f %d\n", low, top, claims);
  return 0;
}
