// exit() after parallel loops ends the program with its status, from a helper, with the
// output written before it kept (on several nodes too, where the program's process is a
// node's and must outlive it).
#include <stdio.h>
#include <stdlib.h>

static void finish(long s) {
  if (s != 4950) {
    printf("FAIL omp_exit_after_loop %ld\n", s);
    exit(1);
  }
  printf("ok omp_exit_after_loop %ld\n", s);
  exit(0);
}

int main(void) {
  int a[100];
#pragma omp parallel for
  for (int i = 0; i < 100; i++)
    a[i] = i;
  long s = 0;
  for (int i = 0; i < 100; i++)
    s += a[i];
  finish(s);
  printf("FAIL omp_exit_after_loop unreachable\n");
  return 1;
}
