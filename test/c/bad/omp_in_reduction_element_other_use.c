// EXPECT-ERROR: 6:17: unsupported C construct: 'sum' used other than as its in_reduction element 'sum[0]' in the task
// The task joins the reduction with sum[0] but also reads sum[1]: its own copy of the
// array would hold no sum[1], so the item is refused rather than read wrong.
static void add(int *sum, int v) {
#pragma omp task in_reduction(+: sum[0])
  sum[0] += v + sum[1] * 0;
}
int main(void) {
  int sums[2] = {0, 0};
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+: sums[0:1])
  for (int i = 0; i < 4; i++)
    add(sums, i);
  return sums[0] == 6 ? 0 : 1;
}
