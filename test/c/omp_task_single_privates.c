/* A region with private and firstprivate clauses whose whole body is a single creating
   tasks with dependences (the task versions of blocked Jacobi sweeps): the tasks run on
   the team, the private copies are the single's. Then a region of a master creating tasks
   followed by a taskwait and a barrier. */
#include <stdio.h>
#include <stdlib.h>

#define NB 8
#define BS 16

int main(void) {
  double *a = malloc(sizeof(double) * NB * BS), *b = malloc(sizeof(double) * NB * BS);
  double *ref = malloc(sizeof(double) * NB * BS);
  int it, blk, i, niter = 6;
  double w = 0.5;
  for (i = 0; i < NB * BS; i++) {
    a[i] = i % 5;
    ref[i] = a[i];
    b[i] = 0;
  }
#pragma omp parallel shared(a, b) private(it, blk, i) firstprivate(niter, w)
#pragma omp single
  {
    for (it = 0; it < niter; it++) {
      for (blk = 0; blk < NB; blk++) {
#pragma omp task depend(in: a[blk * BS]) depend(out: b[blk * BS]) firstprivate(blk) private(i)
        for (i = 0; i < BS; i++)
          b[blk * BS + i] = w * a[blk * BS + i] + 1.0;
      }
      for (blk = 0; blk < NB; blk++) {
#pragma omp task depend(in: b[blk * BS]) depend(out: a[blk * BS]) firstprivate(blk) private(i)
        for (i = 0; i < BS; i++)
          a[blk * BS + i] = b[blk * BS + i];
      }
    }
  }
  for (it = 0; it < niter; it++)
    for (i = 0; i < NB * BS; i++)
      ref[i] = w * ref[i] + 1.0;
  long squares[NB];
#pragma omp parallel
  {
#pragma omp master
    for (blk = 0; blk < NB; blk++) {
#pragma omp task firstprivate(blk) shared(squares)
      squares[blk] = (long)blk * blk;
    }
#pragma omp taskwait
#pragma omp barrier
  }
  int bad = 0;
  for (blk = 0; blk < NB; blk++)
    bad |= squares[blk] != (long)blk * blk;
  double sum = 0;
  for (i = 0; i < NB * BS; i++) {
    bad |= a[i] != ref[i];
    sum += a[i];
  }
  free(a);
  free(b);
  free(ref);
  if (bad) {
    printf("FAIL omp_task_single_privates %.6f\n", sum);
    return 1;
  }
  printf("ok omp_task_single_privates %.6f\n", sum);
  return 0;
}
