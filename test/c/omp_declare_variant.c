// declare variant: a call of the base function calls the variant whose selector matches
// where the call is: device={kind(host)} everywhere on this host, construct={parallel}
// only inside a parallel region, an implementation vendor never (the base runs).
#include <stdio.h>

static int scaled_host(int x) { return x + 1000; }
#pragma omp declare variant(scaled_host) match(device = {kind(host)})
static int scaled(int x) { return x; }

static int in_team(int x) { return x + 3000; }
#pragma omp declare variant(in_team) match(construct = {parallel})
static int placed(int x) { return x; }

static int vendor_only(int x) { return x + 5000; }
#pragma omp declare variant(vendor_only) match(implementation = {vendor(ibm)})
static int plain(int x) { return x; }

int main(void) {
  int outside = placed(1), inside = -1;
  int parts[64];
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    inside = placed(2);
  }
#pragma omp parallel for
  for (int i = 0; i < 64; i++)
    parts[i] = scaled(i) + plain(i);
  int bad = outside != 1 || plain(7) != 7;
#ifdef _OPENMP
  bad += inside != 3002;
  for (int i = 0; i < 64; i++)
    bad += parts[i] != 2 * i + 1000;
#else
  bad += inside != 2;
  for (int i = 0; i < 64; i++)
    bad += parts[i] != 2 * i;
#endif
  if (bad) {
    printf("FAIL omp_declare_variant %d %d %d\n", bad, outside, inside);
    return 1;
  }
  printf("ok omp_declare_variant\n");
  return 0;
}
